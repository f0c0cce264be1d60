package dev.sopline.gateway.api;

import dev.sopline.gateway.web.ErrorBody;
import dev.sopline.schemas.command.CommandReply;
import java.util.function.UnaryOperator;
import org.springframework.http.ResponseEntity;

/** The engine's reply as the HTTP answer: its status, and its body or its error. */
final class Replies {

    private Replies() {}

    static ResponseEntity<Object> toResponse(CommandReply reply, UnaryOperator<Object> shapeBody) {
        if (reply.isSuccess()) {
            return ResponseEntity.status(reply.status()).body(shapeBody.apply(reply.body()));
        }
        return ResponseEntity.status(reply.status()).body(new ErrorBody(reply.error(), reply.message(), reply.details()));
    }
}
