package dev.sopline.gateway.security;

/** Which paths need a workspace token, and the headers that carry it. */
public final class ApiPaths {

    public static final String TOKEN_HEADER = "X-SOP-Token";
    /** The MCP server's endpoint, for AI agents: the same operations as tools, under the same tokens. */
    public static final String MCP = "/mcp";
    /**
     * Metrics for the platform's operators. They span every workspace (worker groups by name, instances by state), so
     * they need the platform administrator's token; a scraper sends it as {@code Authorization: Bearer}.
     */
    public static final String PROMETHEUS = "/actuator/prometheus";

    private ApiPaths() {}

    /** The two routes that need no token: an inbound trigger (signed) and a webhook step's callback (the id is the credential). */
    private static final java.util.regex.Pattern OPEN_ROUTES =
            java.util.regex.Pattern.compile("/sop/triggers/[^/]+(/[^/]+)?|/sop/webhooks/[^/]+");

    /**
     * {@code /sop/*}, {@code /workspace/*}, {@code /workspaces/*}, {@code /mcp} and the Prometheus metrics need a token, except {@code POST}
     * to an inbound trigger ({@code /sop/triggers/:process}, {@code /sop/triggers/:workspace/:process}, signed) and to
     * a webhook step's callback ({@code /sop/webhooks/:id}, the id is the credential). Nothing else under those two
     * prefixes is open: other methods and deeper paths would reach the routes of processes named {@code triggers} or
     * {@code webhooks} without a token. Paths reach this only after the firewall refused {@code ;}, encoded slashes and
     * dot segments, so the servlet path is the path the client meant.
     */
    public static boolean isProtected(String method, String path) {
        boolean api = path.equals("/sop") || path.startsWith("/sop/") || path.startsWith("/workspace/") || path.equals("/workspace")
                || path.startsWith("/workspaces/") || path.equals("/workspaces") || path.equals(MCP) || path.equals(PROMETHEUS);
        return api && !("POST".equalsIgnoreCase(method) && OPEN_ROUTES.matcher(path).matches());
    }
}
