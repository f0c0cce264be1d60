package dev.sopline.gateway.security;

import dev.sopline.gateway.auth.Role;
import java.util.List;
import java.util.Optional;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * The least role each token-protected route needs, first match wins: the one table that both the security chain
 * enforces and the OpenAPI document shows.
 */
public final class RouteRoles {

    /**
     * @param method the method it applies to, or null for every method
     * @param pattern a path pattern as Spring MVC reads them
     * @param role the least role that may call it
     * @param platformOnly whether the token must also be the platform administrator's ({@code admin} of {@code default})
     */
    public record Rule(HttpMethod method, String pattern, Role role, boolean platformOnly) {

        public Rule(HttpMethod method, String pattern, Role role) {
            this(method, pattern, role, false);
        }

        boolean matches(HttpMethod requestMethod, String path) {
            return (method == null || method.equals(requestMethod))
                    && PARSER.parse(pattern).matches(PathContainer.parsePath(path));
        }
    }

    private static final PathPatternParser PARSER = new PathPatternParser();

    public static final List<Rule> RULES = List.of(
            new Rule(null, "/workspaces/**", Role.ADMIN, true),
            new Rule(null, ApiPaths.PROMETHEUS, Role.ADMIN, true),
            new Rule(null, "/workspace/**", Role.ADMIN),
            new Rule(HttpMethod.POST, "/sop/*/*/steps/*/submit", Role.WORKER),
            new Rule(HttpMethod.POST, "/sop/*/*/retry", Role.OPERATOR),
            new Rule(HttpMethod.POST, "/sop/*/*/steps/*/heartbeat", Role.WORKER),
            new Rule(HttpMethod.GET, "/sop/**", Role.VIEWER),
            new Rule(null, "/sop/**", Role.OPERATOR),
            // Any token may talk to the MCP server; each tool then needs the role of the operation it stands for.
            new Rule(null, ApiPaths.MCP, Role.VIEWER));

    private RouteRoles() {}

    /** The least role for a route of the OpenAPI document; its {@code {variables}} match any one segment. */
    public static Optional<Role> leastRoleFor(HttpMethod method, String documentedPath) {
        String path = documentedPath.replaceAll("\\{[^/}]+}", "x");
        return RULES.stream().filter(rule -> rule.matches(method, path)).map(Rule::role).findFirst();
    }
}
