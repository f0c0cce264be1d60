package dev.sopline.gateway.api;

import java.io.IOException;
import dev.sopline.gateway.api.doc.ApiTags;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
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
@Tag(name = ApiTags.PROCESSES)
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

    @Operation(operationId = "getProcessFileSchema", summary = "Read the JSON Schema of process files",
            description = "For editors: `# yaml-language-server: $schema=<gateway>/schemas/process.json` at the top of a process "
                    + "file gives completion and checking. No token.",
            responses = @ApiResponse(responseCode = "200", description = "The JSON Schema (draft 2020-12)",
                    content = @Content(mediaType = "application/schema+json", schema = @Schema(type = "object"))))
    @GetMapping(PATH)
    public ResponseEntity<byte[]> processSchema() {
        return ResponseEntity.ok()
                .contentType(SCHEMA_JSON)
                .cacheControl(CacheControl.maxAge(Duration.ofHours(1)).cachePublic())
                .body(schema);
    }
}
