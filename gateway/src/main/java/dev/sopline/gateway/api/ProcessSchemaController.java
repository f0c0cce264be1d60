package dev.sopline.gateway.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Serves the JSON Schema of process files that editors use for completion and checking ({@code # yaml-language-server:
 * $schema=<gateway>/schemas/process.json}). Public, like the OpenAPI document: it describes the format, not a workspace.
 */
@RestController
public class ProcessSchemaController {

    static final String PATH = "/schemas/process.json";
    static final MediaType SCHEMA_JSON = MediaType.parseMediaType("application/schema+json");
    private static final String RESOURCE = "/schemas/process-file.schema.json";

    private final byte[] schema;

    public ProcessSchemaController() {
        try (InputStream in = ProcessSchemaController.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("The process-file schema " + RESOURCE + " is missing from the classpath");
            }
            this.schema = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @GetMapping(PATH)
    public ResponseEntity<byte[]> processSchema() {
        return ResponseEntity.ok()
                .contentType(SCHEMA_JSON)
                .cacheControl(CacheControl.maxAge(Duration.ofHours(1)).cachePublic())
                .body(schema);
    }
}
