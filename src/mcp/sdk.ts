// The parts of the MCP SDK the server uses, in one module of ours that `server.ts` imports lazily.
// One import() target instead of three library files: the bundle's chunk grouping
// (scripts/lib/chunk-groups.mjs) adds its imports to our own entries only, and the SDK's use of zod
// then lands in the same chunk as the tables' zod instead of splitting it in two for every command.
export { Server } from '@modelcontextprotocol/sdk/server/index.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { CallToolRequestSchema, ErrorCode, ListResourcesRequestSchema, ListToolsRequestSchema, McpError, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
