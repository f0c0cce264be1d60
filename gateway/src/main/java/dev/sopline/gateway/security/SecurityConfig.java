package dev.sopline.gateway.security;

import dev.sopline.gateway.api.RequestScope;
import dev.sopline.gateway.workspace.PlatformAdministrator;
import jakarta.servlet.DispatcherType;
import org.springframework.http.HttpMethod;
import jakarta.servlet.http.HttpServletRequest;
import java.util.function.Supplier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.authorization.AuthorizationDecision;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.config.annotation.web.configuration.WebSecurityCustomizer;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.access.intercept.RequestAuthorizationContext;
import org.springframework.security.web.authentication.AuthenticationFilter;

/**
 * Who may call what (CONTRACT section 8), as Spring Security's filter chain. Its strict HTTP firewall refuses, before
 * any routing, paths that a servlet container and Spring MVC could read differently ({@code ;} parameters, encoded
 * {@code /} and {@code \}, NUL, dot segments); the token filter authenticates {@code X-SOP-Token} or a bearer token; {@link RouteRoles}
 * maps each route to the least role that may call it, checked before the body is read; {@code /workspaces} also needs
 * the platform administrator ({@link PlatformAdministrator}).
 */
@Configuration
@EnableWebSecurity
public class SecurityConfig {

    private static final String BEARER = "Bearer ";

    /**
     * No observation around each of the chain's filters. Turning Spring Security's observations off by property still
     * wrapped every filter in a decorator that asked for (and got) a no-op observation per filter and request;
     * request latency per route is measured anyway ({@code http.server.requests}).
     */
    @Bean
    static SecurityObservationSettings noSecurityObservations() {
        return SecurityObservationSettings.noObservations();
    }

    /** The strict firewall, its header rules checked without regular expressions ({@link HeaderText}). */
    @Bean
    static WebSecurityCustomizer headerTextFirewall() {
        return web -> web.httpFirewall(HeaderText.firewall());
    }

    @Bean
    SecurityFilterChain apiSecurity(HttpSecurity http, TokenAuthenticationProvider provider, JsonSecurityErrors errors) throws Exception {
        http.csrf(AbstractHttpConfigurer::disable)
                .formLogin(AbstractHttpConfigurer::disable)
                .httpBasic(AbstractHttpConfigurer::disable)
                .logout(AbstractHttpConfigurer::disable)
                .requestCache(AbstractHttpConfigurer::disable)
                // Nothing asks the servlet request for its user or roles: no wrapper for every call into the request.
                .servletApi(AbstractHttpConfigurer::disable)
                .sessionManagement(sessions -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                // The API's answers say themselves whether they may be cached; the task inbox's files may be.
                .headers(headers -> headers.cacheControl(cache -> cache.disable()))
                .exceptionHandling(exceptions -> exceptions.authenticationEntryPoint(errors).accessDeniedHandler(errors))
                .addFilterBefore(tokenFilter(provider, errors), AuthorizationFilter.class)
                .authorizeHttpRequests(routes -> {
                    routes
                        // Re-dispatches of a request already authorised: an event stream's completion, an error page.
                        .dispatcherTypeMatchers(DispatcherType.ASYNC, DispatcherType.ERROR, DispatcherType.FORWARD,
                                DispatcherType.INCLUDE).permitAll()
                        // Signed triggers and one-shot callbacks carry their own credential.
                        .requestMatchers(HttpMethod.POST, "/sop/triggers/*", "/sop/triggers/*/*", "/sop/webhooks/*").permitAll();
                    RouteRoles.RULES.forEach(rule -> {
                        var route = routes.requestMatchers(rule.method(), rule.pattern());
                        if (rule.platformOnly()) {
                            route.access(SecurityConfig::platformAdministrator);
                        } else {
                            route.hasRole(rule.role().name());
                        }
                    });
                    // The task inbox's files, health, the OpenAPI document and its Swagger UI (/docs),
                    // which are static: the calls the UI makes need the token its Authorize button takes.
                    routes.anyRequest().permitAll();
                });
        return http.build();
    }

    private static AuthenticationFilter tokenFilter(TokenAuthenticationProvider provider, JsonSecurityErrors errors) {
        AuthenticationFilter filter = new AuthenticationFilter(new ProviderManager(provider), SecurityConfig::presentedToken);
        filter.setRequestMatcher(request -> ApiPaths.isProtected(request.getMethod(), request.getServletPath()));
        filter.setFailureHandler(errors);
        // Continue the chain (the default handler would redirect, as after a login form) with the token's scope.
        filter.setSuccessHandler((request, response, authentication) -> {
            TokenAuthentication token = (TokenAuthentication) authentication;
            request.setAttribute(RequestScope.WORKSPACE_ATTRIBUTE, token.record().workspace());
            request.setAttribute(RequestScope.TOKEN_ATTRIBUTE, token.record().id());
            request.setAttribute(RequestScope.TOKEN_RECORD_ATTRIBUTE, token.record());
        });
        return filter;
    }

    /** Only an {@code admin} token of workspace {@code default} (see {@link PlatformAdministrator}). */
    private static AuthorizationDecision platformAdministrator(Supplier<? extends Authentication> authentication,
                                                               RequestAuthorizationContext context) {
        return new AuthorizationDecision(authentication.get() instanceof TokenAuthentication token && PlatformAdministrator.is(token.record()));
    }

    /**
     * {@code X-SOP-Token}, or else {@code Authorization: Bearer}, which MCP clients and generated API clients send. No
     * token: no authentication attempt, and the rules answer 401 where a token is needed.
     */
    private static TokenAuthentication presentedToken(HttpServletRequest request) {
        String header = request.getHeader(ApiPaths.TOKEN_HEADER);
        if (header == null) {
            header = bearerToken(request.getHeader(HttpHeaders.AUTHORIZATION));
        }
        return header == null ? null : TokenAuthentication.presented(header);
    }

    private static String bearerToken(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return null;
        }
        return authorization.substring(BEARER.length());
    }
}
