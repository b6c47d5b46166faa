/**
 * The bare baseline of the charging benchmarks: the source of a `node:http` server that sends
 * one body with the header lines it is given (our server's answer as it sent it: rate-limit,
 * CORS, caching and encoding headers included, so both write the same bytes to the socket),
 * written as one would by hand: one headers array, one body, no per-request work. The benchmarks write it to
 * a file and run it as its own process, so it shares nothing with the server under test.
 * SIGINT and SIGTERM close it with exit code 0 (a `--cpu-prof` run writes its profile then).
 * @module
 */
export const BARE_SERVER = `
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
const body = readFileSync(process.env.BODY_FILE);
const headers = JSON.parse(process.env.BODY_HEADERS);
const server = createServer((req, res) => { res.writeHead(200, headers); res.end(body); });
server.keepAliveTimeout = 5000;
server.listen(0, "127.0.0.1", () => process.stderr.write("listening on http://127.0.0.1:" + server.address().port + "\\n"));
for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => server.close(() => process.exit(0)));
`;
