package dev.sopline.gateway.workspace;

import dev.sopline.gateway.web.ErrorResponses;
import dev.sopline.schemas.command.ErrorCodes;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Signed triggers into a deleted workspace answer 404, as for a process that does not exist: its processes stay
 * registered in the engine, but no new instance may start where nobody can see or cancel it. Triggers carry no
 * token, so the refusal of a deleted workspace's tokens does not reach them. Ordered after the rate limits and before
 * the body is read ({@code RequestBodyFilter}), so a refused trigger costs no buffering.
 */
@Component
@Order(SecurityFilterProperties.DEFAULT_FILTER_ORDER + 15)
public class DeletedWorkspaceTriggers extends OncePerRequestFilter {

    private static final String PREFIX = "/sop/triggers/";

    private final WorkspaceRegistry workspaces;

    public DeletedWorkspaceTriggers(WorkspaceRegistry workspaces) {
        this.workspaces = workspaces;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !request.getServletPath().startsWith(PREFIX);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String[] segments = request.getServletPath().substring(PREFIX.length()).split("/");
        // Only /sop/triggers/{workspace}/{process} names a workspace; /sop/triggers/{process} is in default.
        if (segments.length == 2 && workspaces.isDeleted(segments[0])) {
            ErrorResponses.writeUnread(request, response, 404, ErrorCodes.NOT_FOUND,
                    "Expected a published process named '%s' in workspace '%s', but the workspace is deleted".formatted(segments[1], segments[0]));
            return;
        }
        chain.doFilter(request, response);
    }
}
