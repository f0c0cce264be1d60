package dev.sopline.schemas.definition;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The process files in {@code examples/} are what new users copy first: each must register as it is. */
class ExamplesTest {

    @Test
    void shouldLoadEveryExampleProcessFile() throws IOException {
        Path examples = Path.of("..", "examples");
        List<Path> files;
        try (Stream<Path> listing = Files.list(examples)) {
            files = listing.filter(path -> path.toString().endsWith(".yaml")).toList();
        }
        assertThat(files).hasSizeGreaterThanOrEqualTo(3);
        for (Path file : files) {
            ProcessFiles.LoadResult result = ProcessFiles.load(Files.readAllBytes(file));
            assertThat(result).as("%s: %s", file, result).isInstanceOf(ProcessFiles.Loaded.class);
        }
    }
}
