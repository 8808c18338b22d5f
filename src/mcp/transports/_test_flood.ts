/**
 * Test helper: floods an MCP endpoint with `initialize` requests that never complete initialisation,
 * over keep-alive HTTP/1.1 connections from a chosen loopback source address (node:http's
 * `localAddress`, so the server sees another client than 127.0.0.1).
 *
 * @module
 */

import http from "node:http";
import { INITIALIZE } from "./_test_serve.ts";

/** Options for {@linkcode floodInitialize}. */
export interface FloodOptions {
  /** Requests to send. */
  count: number;
  /** Source address of the connections (any 127.0.0.0/8 address on Linux). @default "127.0.0.2" */
  localAddress?: string;
  /** Connections used in parallel. @default 16 */
  connections?: number;
  /** Path of the endpoint. @default "/mcp" */
  path?: string;
}

/** What the flood got back. */
export interface FloodResult {
  /** Answers by status code. */
  statuses: Map<number, number>;
  /** Retry-After values of the 429 answers, by value. */
  retryAfter: Map<string, number>;
  /** Milliseconds the flood took. */
  elapsedMs: number;
}

function post(agent: http.Agent, port: number, options: FloodOptions, body: string) {
  return new Promise<{ status: number; retryAfter?: string }>((resolve, reject) => {
    const request = http.request({
      agent,
      host: "127.0.0.1",
      port,
      path: options.path ?? "/mcp",
      method: "POST",
      localAddress: options.localAddress ?? "127.0.0.2",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "content-length": String(Buffer.byteLength(body)),
      },
    }, (response) => {
      response.resume();
      response.on("end", () => {
        const retryAfter = response.headers["retry-after"];
        resolve({
          status: response.statusCode ?? 0,
          retryAfter: typeof retryAfter === "string" ? retryAfter : undefined,
        });
      });
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(body);
  });
}

/** Sends `options.count` initialize requests to 127.0.0.1:`port` and tallies the answers. */
export async function floodInitialize(port: number, options: FloodOptions): Promise<FloodResult> {
  const connections = options.connections ?? 16;
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const body = JSON.stringify(INITIALIZE);
  const statuses = new Map<number, number>();
  const retryAfter = new Map<string, number>();
  const started = performance.now();
  let next = 0;
  async function worker(): Promise<void> {
    while (next < options.count) {
      next++;
      const answer = await post(agent, port, options, body);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 429) {
        retryAfter.set(answer.retryAfter ?? "", (retryAfter.get(answer.retryAfter ?? "") ?? 0) + 1);
      }
    }
  }
  try {
    await Promise.all(Array.from({ length: connections }, () => worker()));
  } finally {
    agent.destroy();
  }
  return { statuses, retryAfter, elapsedMs: performance.now() - started };
}
