/**
 * The one source of every way a client is told to start the SEO server: the one-line add
 * command, the `mcpServers` and `servers` JSON, the Cursor and VS Code install links, the Claude
 * Code plugin (manifest, marketplace entry, `.mcp.json`) and the desktop-extension manifest.
 * `scripts/client-configs.ts` writes them into the docs and the shipped files, and checks them.
 * @module
 */

import { VERSION } from "../shared/build-info.ts";

export const PACKAGE = "seo-audit-mcp";
/** The server's name in every client configuration. */
const SERVER_KEY = "seo";
export const PLUGIN_NAME = "seo-audit";
export const MARKETPLACE_NAME = "seo-audit-mcp";
export const SKILL_NAME = "seo-check";
const AUTHOR = { name: "seo-audit-mcp contributors" };
const DESCRIPTION =
  "SEO audit MCP server: bounded, robots-honouring site audits with ranked fixes and re-audits, page reports, keyword ideas, rank checks and domain authority; every value labelled with its provenance";

/**
 * The package every npm-based client configuration runs with `npx -y`. seo-audit-mcp is not on
 * the npm registry yet (`npx -y seo-audit-mcp` answers 404), so the configurations run the
 * packed tarball: `npm run pack:npm` writes dist/npm/seo-audit-mcp-<version>.tgz, and
 * `/path/to/` is a placeholder the user replaces with that folder (a path is machine-specific).
 * Once the package is published this becomes PACKAGE, and `node scripts/client-configs.ts`
 * regenerates every configuration and document.
 */
export const PACKAGE_SPEC = `/path/to/${PACKAGE}-${VERSION}.tgz`;
/**
 * The plugin's `.mcp.json` reads the package from SEO_AUDIT_MCP_PACKAGE: an installed plugin's
 * files are not the user's to edit, while Claude Code expands `${VAR:-default}` when it starts the server.
 */
export const PACKAGE_VARIABLE = "SEO_AUDIT_MCP_PACKAGE";

/** `npx -y <tarball> mcp`: what every npm-based client runs. */
const STDIO = { command: "npx", args: ["-y", PACKAGE_SPEC, "mcp"] } as const;

interface ClientKey {
  env: string;
  title: string;
  description: string;
  /** Asked for by the desktop bundle and the VS Code inputs (the spec's three optional keys). */
  asked: boolean;
}

export const CLIENT_KEYS: readonly ClientKey[] = [
  {
    env: "SEO_PSI_KEY",
    title: "PageSpeed Insights API key",
    description:
      "Optional. Google Cloud API key with the PageSpeed Insights API enabled: lab metrics and Lighthouse SEO audits in seo_page_report.",
    asked: true,
  },
  {
    env: "SEO_CRUX_KEY",
    title: "Chrome UX Report API key",
    description:
      "Optional. Google Cloud API key with the Chrome UX Report API enabled: real-user field data in seo_page_report.",
    asked: true,
  },
  {
    env: "SEO_OPR_KEY",
    title: "Open PageRank API key",
    description: "Optional. Free key from domcop.com/openpagerank: Open PageRank scores in seo_authority.",
    asked: true,
  },
  {
    env: "SEO_BING_KEY",
    title: "Bing Webmaster Tools API key",
    description: "Optional. Keyword demand and your verified sites' positions.",
    asked: false,
  },
  {
    env: "SEO_GSC_CREDENTIALS",
    title: "Search Console service-account JSON",
    description: "Optional. A path or the JSON itself: your queries and average positions.",
    asked: false,
  },
];

const ASKED = CLIENT_KEYS.filter((k) => k.asked);
/** `SEO_PSI_KEY` -> `psi_key` (bundle option id), `seo-psi-key` (VS Code input id). */
const optionId = (key: ClientKey) => key.env.replace(/^SEO_/, "").toLowerCase();
const inputId = (key: ClientKey) => key.env.toLowerCase().replaceAll("_", "-");
const envOf = (keys: readonly ClientKey[], value: (k: ClientKey) => string) =>
  Object.fromEntries(keys.map((k) => [k.env, value(k)]));

/** argv of the one-line add command; `env` adds `-e NAME=value` pairs after the server name. */
export function addCommand(env: Record<string, string> = {}): string[] {
  const pairs = Object.entries(env).flatMap(([name, value]) => ["-e", `${name}=${value}`]);
  // -e takes several values, so the pairs go after the name: before it they would swallow it.
  return ["claude", "mcp", "add", "--transport", "stdio", SERVER_KEY, ...pairs, "--", STDIO.command, ...STDIO.args];
}

/** argv as one POSIX shell line: plain words stay bare, anything else is single-quoted. */
export function shellLine(argv: readonly string[]): string {
  const quote = (arg: string) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`);
  return argv.map(quote).join(" ");
}

interface ServerEntry {
  command: string;
  args: string[];
  env: Record<string, string>;
}
/** A client file's server table: one server, under the name every client uses. */
type Servers<T> = Record<typeof SERVER_KEY, T>;
const servers = <T>(entry: T): Servers<T> => ({ [SERVER_KEY]: entry }) as Servers<T>;

/** The `mcpServers.seo` entry: empty key values are placeholders the server treats as unset. */
function mcpServersEntry(): ServerEntry {
  return { command: STDIO.command, args: [...STDIO.args], env: envOf(ASKED, () => "") };
}

/** `.cursor/mcp.json` and every client that reads `mcpServers`. */
export function mcpServersConfig(): { mcpServers: Servers<ServerEntry> } {
  return { mcpServers: servers(mcpServersEntry()) };
}

/** VS Code's prompts for the keys: each asked once, stored as a secret. */
function vscodeInputs() {
  return ASKED.map((k) => ({
    type: "promptString" as const,
    id: inputId(k),
    description: `${k.title} (optional: leave empty to skip)`,
    password: true as const,
  }));
}

function vscodeEntry() {
  return {
    type: "stdio" as const,
    command: STDIO.command,
    args: [...STDIO.args],
    env: envOf(ASKED, (k) => `\${input:${inputId(k)}}`),
  };
}

/** `.vscode/mcp.json`: keys are asked for once and stored by VS Code as secrets. */
export function vscodeConfig() {
  return { servers: servers(vscodeEntry()), inputs: vscodeInputs() };
}

function base64(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
}

/** Cursor's install link: `config` is the base64 of the `mcpServers` entry. */
export function cursorInstallLink(): string {
  const query = new URLSearchParams({ name: SERVER_KEY, config: base64(JSON.stringify(mcpServersEntry())) });
  return `cursor://anysphere.cursor-deeplink/mcp/install?${query}`;
}

/** VS Code's install link: the URL-encoded `servers` entry with its name and inputs. */
export function vscodeInstallLink(): string {
  const config = { name: SERVER_KEY, ...vscodeEntry(), inputs: vscodeInputs() };
  return `vscode:mcp/install?${encodeURIComponent(JSON.stringify(config))}`;
}

/** The plugin's `.mcp.json`: every key from the user's environment, `${VAR:-}` so unset stays empty. */
export function pluginMcpConfig() {
  return {
    mcpServers: servers<ServerEntry>({
      command: STDIO.command,
      args: ["-y", `\${${PACKAGE_VARIABLE}:-${PACKAGE_SPEC}}`, "mcp"],
      env: envOf(CLIENT_KEYS, (k) => `\${${k.env}:-}`),
    }),
  };
}

export function pluginManifest(version: string) {
  return {
    name: PLUGIN_NAME,
    version,
    description: `${DESCRIPTION}. Adds the ${SKILL_NAME} skill: audit, fix the ranked problems in your code, re-audit.`,
    author: AUTHOR,
    license: "MIT",
    keywords: ["seo", "audit", "mcp", "lighthouse", "sitemap", "robots"],
  };
}

/** `.claude-plugin/marketplace.json` at the repository root: adding the repository installs the plugin. */
export function marketplace(version: string) {
  return {
    name: MARKETPLACE_NAME,
    description: "The seo-audit plugin: the SEO audit MCP server and the seo-check skill",
    owner: AUTHOR,
    plugins: [
      {
        name: PLUGIN_NAME,
        source: "./shim/claude-plugin",
        description: pluginManifest(version).description,
        version,
      },
    ],
  };
}

export interface ListedTool {
  name: string;
  title?: string;
}

/** Where the desktop bundle keeps the built server (the entry point and its chunks). */
export const BUNDLE_ENTRY = "server/seo.js";
/** The packed desktop bundle's file name (written to dist/ by scripts/pack-mcpb.ts). */
export const BUNDLE_FILE = `${PACKAGE}.mcpb`;

function userConfig() {
  return Object.fromEntries(
    ASKED.map((k) => [
      optionId(k),
      { type: "string", title: k.title, description: k.description, sensitive: true, required: false },
    ]),
  );
}

/**
 * The desktop-extension (MCPB) manifest. The bundle carries the built server and runs it with the
 * host's Node, so it starts offline; keys reach the server as environment variables by name.
 */
export function bundleManifest(version: string, tools: readonly ListedTool[]) {
  return {
    manifest_version: "0.3",
    name: PACKAGE,
    display_name: "SEO audit",
    version,
    description: "Audit a website's SEO (local dev servers too), get ranked fixes, re-audit to see what changed",
    long_description: `${DESCRIPTION}. No account and no key needed; the three keys below only add data and are sent only to their own provider.`,
    author: AUTHOR,
    license: "MIT",
    keywords: ["seo", "audit", "sitemap", "robots", "pagespeed", "keywords"],
    server: {
      type: "node",
      entry_point: BUNDLE_ENTRY,
      mcp_config: {
        command: "node",
        args: [`\${__dirname}/${BUNDLE_ENTRY}`, "mcp"],
        env: envOf(ASKED, (k) => `\${user_config.${optionId(k)}}`),
      },
    },
    tools: tools.map((t) => ({ name: t.name, ...(t.title ? { description: t.title } : {}) })),
    tools_generated: false,
    compatibility: { platforms: ["darwin", "win32", "linux"], runtimes: { node: ">=22.0.0" } },
    user_config: userConfig(),
  };
}
