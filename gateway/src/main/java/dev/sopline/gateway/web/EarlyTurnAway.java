package dev.sopline.gateway.web;

import dev.sopline.gateway.api.RequestScope;
import dev.sopline.gateway.command.CommandBus;
import dev.sopline.gateway.command.CommandsInFlightFullException;
import dev.sopline.gateway.command.WaitsForTheEngine;
import dev.sopline.schemas.command.ErrorCodes;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.function.Function;
import java.util.function.Predicate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Answers a write that would be turned away ({@link WaitsForTheEngine}) before its body is parsed and its handler
 * runs (its bytes have been taken by {@link RequestBodyFilter} by then: most arrive with the request's head). Under
 * overload most writes are turned away, and each used to be parsed, looked up and answered through Spring MVC's
 * exception handling first: that work took the CPU the engine needed to decide the writes let in, so fewer were let
 * in, and more turned away (docs/decisions.md, "Turning writes away before their bodies are parsed"). The answer has
 * the status, {@code Retry-After}, code and message of the one a write turned away by {@link CommandBus#send} gets.
 */
@Component
public class EarlyTurnAway implements HandlerInterceptor, WebMvcConfigurer {

    private final Predicate<String> turnsAway;
    private final Function<HttpServletRequest, String> workspaceOf;

    @Autowired
    public EarlyTurnAway(CommandBus commands, RequestScope scope) {
        this(commands::turnsAway, scope::workspace);
    }

    /**
     * @param turnsAway whether a command of the workspace would be turned away now (counting it if so)
     * @param workspaceOf the workspace of the request's token; null without one
     */
    EarlyTurnAway(Predicate<String> turnsAway, Function<HttpServletRequest, String> workspaceOf) {
        this.turnsAway = turnsAway;
        this.workspaceOf = workspaceOf;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this);
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) throws IOException {
        if (!(handler instanceof HandlerMethod method) || !method.hasMethodAnnotation(WaitsForTheEngine.class)) {
            return true;
        }
        String workspace = workspaceOf.apply(request);
        if (workspace == null || !turnsAway.test(workspace)) {
            return true;
        }
        response.setHeader(HttpHeaders.RETRY_AFTER, ApiErrorHandler.RETRY_AFTER_SECONDS);
        ErrorResponses.write(response, HttpStatus.SERVICE_UNAVAILABLE.value(), ErrorCodes.UNAVAILABLE, CommandsInFlightFullException.ANSWER);
        return false;
    }
}
