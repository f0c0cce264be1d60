package dev.sopline.gateway.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.web.firewall.RequestRejectedException;

class HeaderTextTest {

    /** Spring Security 7's expressions for header and parameter names, and for header values. */
    private static final Pattern NAMES = Pattern.compile("[\\p{IsAssigned}&&[^\\p{IsControl}]]*");
    private static final Pattern VALUES = Pattern.compile("[\\p{IsAssigned}&&[[^\\p{IsControl}]||\\t]]*");

    @Test
    void shouldDecideAsSpringSecuritysExpressionsOnRandomText() {
        Random random = new Random(42);
        for (int i = 0; i < 200_000; i++) {
            String text = randomText(random);
            assertThat(HeaderText.isAssignedAndNoControl(text)).as("name %s", codePoints(text)).isEqualTo(NAMES.matcher(text).matches());
            assertThat(HeaderText.isHeaderValue(text)).as("value %s", codePoints(text)).isEqualTo(VALUES.matcher(text).matches());
        }
    }

    @Test
    void shouldDecideAsSpringSecuritysExpressionsOnEveryCharacterOfTheBasicPlane() {
        for (int c = 0; c <= Character.MAX_VALUE; c++) {
            String text = "a" + (char) c + "b";
            assertThat(HeaderText.isAssignedAndNoControl(text)).as("U+%04X", c).isEqualTo(NAMES.matcher(text).matches());
            assertThat(HeaderText.isHeaderValue(text)).as("U+%04X", c).isEqualTo(VALUES.matcher(text).matches());
        }
    }

    @Test
    void shouldLetTheFirewallRefuseAControlCharacterInAHeaderItReads() {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/sop/instances");
        request.addHeader("X-SOP-Token", "abc\u0085def");
        request.addHeader("Accept", "application/json,\ttext/plain");
        var firewalled = HeaderText.firewall().getFirewalledRequest(request);

        assertThat(firewalled.getHeader("Accept")).isEqualTo("application/json,\ttext/plain");
        assertThatThrownBy(() -> firewalled.getHeader("X-SOP-Token")).isInstanceOf(RequestRejectedException.class);
    }

    /** Mostly printable ASCII, as headers are, with tabs, controls, the rest of the basic plane, surrogates alone and in pairs. */
    private static String randomText(Random random) {
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(12);
        for (int i = 0; i < length; i++) {
            switch (random.nextInt(8)) {
                case 0 -> text.append('\t');
                case 1 -> text.append((char) random.nextInt(0x20));
                case 2 -> text.append((char) (0x7F + random.nextInt(0x21)));
                case 3 -> text.append((char) random.nextInt(Character.MAX_VALUE + 1));
                case 4 -> text.append((char) (Character.MIN_SURROGATE + random.nextInt(Character.MAX_SURROGATE - Character.MIN_SURROGATE + 1)));
                case 5 -> text.appendCodePoint(Character.MIN_SUPPLEMENTARY_CODE_POINT
                        + random.nextInt(Character.MAX_CODE_POINT - Character.MIN_SUPPLEMENTARY_CODE_POINT + 1));
                default -> text.append((char) (' ' + random.nextInt(0x5F)));
            }
        }
        return text.toString();
    }

    private static String codePoints(String text) {
        StringBuilder out = new StringBuilder();
        text.codePoints().forEach(codePoint -> out.append(String.format("U+%04X ", codePoint)));
        return out.toString().trim();
    }
}
