package dev.sopline.schemas.validation;

/** 1-based line and column of a value in a process file. */
public record SourcePosition(int line, int column) {}
