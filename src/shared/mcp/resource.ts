/**
 * What a server offers as MCP resources: URI templates (`resources/templates/list`), a reader
 * for the URIs they make (`resources/read`), and the links a tool's answer carries to them.
 * @module
 */
import type { ServerInfo } from "./listing.ts";

/** A `resources/templates/list` entry: an RFC 6570 URI template and what it names. */
export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** A link to a resource in a tool's answer (MCP `resource_link` content). */
export interface ResourceLink {
  uri: string;
  name: string;
  description?: string;
  mimeType?: string;
}

/** One resource's contents, as `resources/read` answers them. */
export interface ResourceText {
  uri: string;
  mimeType: string;
  text: string;
}

/** Reads the resource at `uri`: undefined when there is none (the client is told -32002). */
export type ReadResource = (uri: string) => Promise<ResourceText | undefined>;

/** MCP's error code for a URI no resource answers to. */
export const RESOURCE_NOT_FOUND = -32002;

/** MCP's tasks capability: task-augmented tools/call, tasks/list and tasks/cancel. */
const TASKS = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/** The capabilities `initialize` answers: tools, and resources and tasks when the server has them. */
export const capabilitiesOf = (info: ServerInfo) => ({
  tools: {},
  ...(info.resourceTemplates ? { resources: {} } : {}),
  ...(info.tasks ? { tasks: TASKS } : {}),
});
