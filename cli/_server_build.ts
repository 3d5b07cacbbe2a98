/**
 * What a build server needs to build, loaded once it listens (see
 * `cli/server.ts`): the pipeline is most of slop's modules, and a client
 * that started the server connects while they load.
 *
 * @module
 */

export { runBuild } from "./build.ts";
export { collectGarbage } from "./_collect.ts";
export { serverSession } from "./_server_session.ts";
export { warmUp } from "./_warm_up.ts";
export { build } from "../pipeline/build.ts";
