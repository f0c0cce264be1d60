package dev.sopline.gateway.command;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an API handler whose request, authenticated by a token, publishes a command of the token's workspace and
 * waits for the engine's reply ({@link CommandBus#send}). When that workspace has no room left among the commands
 * waiting, the request is answered 503 {@code unavailable} before its body is parsed or its handler runs.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface WaitsForTheEngine {}
