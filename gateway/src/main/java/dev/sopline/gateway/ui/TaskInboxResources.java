package dev.sopline.gateway.ui;

import org.springframework.context.annotation.Configuration;
import org.springframework.http.CacheControl;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Serves the task inbox, static files under {@code /ui/} that call the public API from the browser. Only these are
 * mapped: Spring's default static locations stay off, so every other unknown path still answers the JSON 404.
 */
@Configuration(proxyBeanMethods = false)
public class TaskInboxResources implements WebMvcConfigurer {

    static final String PATH = "/ui/";

    @Override
    public void addResourceHandlers(ResourceHandlerRegistry registry) {
        // no-cache: the browser revalidates (Last-Modified), so a new gateway version is picked up on the next load.
        registry.addResourceHandler(PATH + "**")
                .addResourceLocations("classpath:/ui/")
                .setCacheControl(CacheControl.noCache());
    }

    @Override
    public void addViewControllers(ViewControllerRegistry registry) {
        registry.addRedirectViewController("/", PATH);
        registry.addRedirectViewController("/ui", PATH);
        registry.addViewController(PATH).setViewName("forward:" + PATH + "index.html");
    }
}
