package dev.sopline.gateway.webhook;

/** A webhook URL whose host has an address that deliveries may not go to; the message names the address and why. */
public class ForbiddenDestinationException extends Exception {

    public ForbiddenDestinationException(String message) {
        super(message);
    }
}
