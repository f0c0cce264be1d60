package dev.sopline.gateway.security;

/** Which paths need a workspace token, and the header that carries it. */
public final class ApiPaths {

    public static final String TOKEN_HEADER = "X-SOP-Token";

    private ApiPaths() {}

    /**
     * {@code /sop/*}, {@code /workspace/*} and {@code /workspaces/*} need a token, except inbound triggers (signed) and webhook callbacks (the
     * id is the credential). Paths reach this only after the firewall refused {@code ;}, encoded slashes and dot
     * segments, so the servlet path is the path the client meant.
     */
    public static boolean isProtected(String path) {
        boolean api = path.equals("/sop") || path.startsWith("/sop/") || path.startsWith("/workspace/") || path.equals("/workspace")
                || path.startsWith("/workspaces/") || path.equals("/workspaces");
        return api && !path.startsWith("/sop/triggers/") && !path.startsWith("/sop/webhooks/");
    }
}
