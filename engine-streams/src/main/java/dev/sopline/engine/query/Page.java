package dev.sopline.engine.query;

import java.util.List;

/**
 * One page of a list and the cursor of the next, null on the last page.
 *
 * @param items this page's entries
 * @param nextCursor opaque cursor to pass for the next page
 */
public record Page<T>(List<T> items, String nextCursor) {}
