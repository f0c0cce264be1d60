package dev.sopline.gateway.mcp;

import java.util.List;

/** A group of tools, each standing for one API operation. */
interface ToolSet {

    List<ToolDefinition> tools();
}
