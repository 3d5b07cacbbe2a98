/**
 * The one redaction every message slop prints or answers goes through: an
 * error or a warning can quote input (a flag's value, a config value of the
 * wrong type, a parser's excerpt of a config line, an HTTP body), and that
 * input can be a key. A light module
 * (slop's rule table, no secretlint, no cache), so that the CLI's printing
 * and the MCP server's replies can load it.
 *
 * @module
 */

export { redactMessage } from "./_scan.ts";
