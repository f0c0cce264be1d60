package dev.sopline.gateway.mcp;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import org.springframework.web.multipart.MultipartFile;

/** A process file given as a tool argument, handed to the registration as the upload it is over HTTP. */
final class ProcessFileUpload implements MultipartFile {

    private final byte[] content;

    ProcessFileUpload(byte[] content) {
        this.content = content.clone();
    }

    @Override
    public String getName() {
        return "file";
    }

    @Override
    public String getOriginalFilename() {
        return "process.yaml";
    }

    @Override
    public String getContentType() {
        return "application/yaml";
    }

    @Override
    public boolean isEmpty() {
        return content.length == 0;
    }

    @Override
    public long getSize() {
        return content.length;
    }

    @Override
    public byte[] getBytes() {
        return content.clone();
    }

    @Override
    public InputStream getInputStream() {
        return new ByteArrayInputStream(content);
    }

    @Override
    public void transferTo(File destination) throws IOException {
        Files.write(destination.toPath(), content);
    }
}
