package dev.sopline.gateway.security;

/** Which paths need a workspace token, and the headers that carry it. */
public final class ApiPaths {

    public static final String TOKEN_HEADER = "X-SOP-Token";
    /** The MCP server's endpoint, for AI agents: the same operations as tools, under the same tokens. */
    public static final String MCP = "/mcp";

    private ApiPaths() {}

    /**
     * {@code /sop/*}, {@code /workspace/*}, {@code /workspaces/*} and {@code /mcp} need a token, except inbound triggers (signed) and webhook callbacks (the
     * id is the credential). Paths reach this only after the firewall refused {@code ;}, encoded slashes and dot
     * segments, so the servlet path is the path the client meant.
     */
    public static boolean isProtected(String path) {
        boolean api = path.equals("/sop") || path.startsWith("/sop/") || path.startsWith("/workspace/") || path.equals("/workspace")
                || path.startsWith("/workspaces/") || path.equals("/workspaces") || path.equals(MCP);
        return api && !path.startsWith("/sop/triggers/") && !path.startsWith("/sop/webhooks/");
    }
}
