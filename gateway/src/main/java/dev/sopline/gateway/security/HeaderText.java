package dev.sopline.gateway.security;

import org.springframework.security.web.firewall.StrictHttpFirewall;

/**
 * The strict firewall's rules for header names, header values and parameter names, as Spring Security states them
 * ({@code [\p{IsAssigned}&&[^\p{IsControl}]]*}, and for values also a tab), checked without its regular expressions.
 *
 * <p>Written by hand because the firewall matches those expressions on every header a request's handling reads, each
 * time it is read, and Spring MVC reads {@code Accept} twice per request (to pick the route and to write the answer):
 * a Unicode category lookup per character, 6% of the HTTP threads' samples in a flight recording of the closed loop
 * at 64 instances in flight (docs/decisions.md). Printable ASCII, nearly every header's whole text, is assigned and no
 * control character, so it is passed at a comparison per character; anything else gets the same category checks the
 * expressions make, per code point ({@code HeaderTextTest} compares both on random text).
 */
final class HeaderText {

    private HeaderText() {
    }

    /** Spring Security's strict firewall, with these rules in place of its expressions; every other rule as it has them. */
    static StrictHttpFirewall firewall() {
        StrictHttpFirewall firewall = new StrictHttpFirewall();
        firewall.setAllowedHeaderNames(HeaderText::isAssignedAndNoControl);
        firewall.setAllowedHeaderValues(HeaderText::isHeaderValue);
        firewall.setAllowedParameterNames(HeaderText::isAssignedAndNoControl);
        return firewall;
    }

    /** Every code point is assigned in Unicode and none is a control character. */
    static boolean isAssignedAndNoControl(String text) {
        return allowed(text, false);
    }

    /** As {@link #isAssignedAndNoControl}, but a tab is allowed: a header value may hold one. */
    static boolean isHeaderValue(String text) {
        return allowed(text, true);
    }

    private static boolean allowed(String text, boolean tab) {
        int length = text.length();
        int i = 0;
        while (i < length) {
            char c = text.charAt(i);
            if (c >= ' ' && c < 0x7F) {
                i++;
                continue;
            }
            int codePoint = text.codePointAt(i);
            int type = Character.getType(codePoint);
            if (type == Character.UNASSIGNED || type == Character.CONTROL && !(tab && codePoint == '\t')) {
                return false;
            }
            i += Character.charCount(codePoint);
        }
        return true;
    }
}
