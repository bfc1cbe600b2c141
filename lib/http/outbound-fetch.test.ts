import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeOutboundFailure, isAddressRefused } from "./outbound-failure";
import { createOutboundFetch } from "./outbound-fetch";
import { startLoopbackServer } from "./testing/loopback-server";

type Server = Awaited<ReturnType<typeof startLoopbackServer>>;

async function failureOf(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => {
      throw new Error("the request went through");
    },
    (error: unknown) => error,
  );
}

describe("the outbound fetch", () => {
  let server: Server;
  beforeAll(async () => {
    server = await startLoopbackServer();
  });
  afterAll(() => server.close());

  it("refuses a listening loopback server by literal and by name, and sends it nothing", async () => {
    const strict = createOutboundFetch({ allowPrivate: false });
    const names = ["127.0.0.1", "localhost"];
    // The machine's own name, when /etc/hosts (or DNS) gives it a loopback address.
    if (hostname()) names.push(hostname());
    const before = { ...server.seen };
    for (const name of names) {
      const error = await failureOf(strict(server.url("/secret", name)));
      expect(isAddressRefused(error), name).toBe(true);
      expect(describeOutboundFailure(error)).toBe("The address was refused by the outbound address policy");
    }
    expect(server.seen).toEqual(before);
  });

  it("reaches the same server when private addresses are allowed", async () => {
    const open = createOutboundFetch({ allowPrivate: true });
    for (const name of ["127.0.0.1", "localhost"]) {
      const response = await open(server.url("/", name));
      // The SDKs that call it test `instanceof Response`.
      expect(response).toBeInstanceOf(Response);
      expect(await response.text()).toBe("ok");
    }
  });

  it("refuses every private form of an address before connecting", async () => {
    const strict = createOutboundFetch({ allowPrivate: false });
    const port = server.port;
    for (const host of [
      "127.0.0.1",
      "2130706433",
      "0x7f.1",
      "0.0.0.0",
      "169.254.169.254",
      "192.0.2.2",
      "198.51.100.7",
      "203.0.113.9",
      "198.18.0.1",
      "[::1]",
      "[::ffff:127.0.0.1]",
      "[::7f00:1]",
      "[64:ff9b::127.0.0.1]",
      "[2002:7f00:1::]",
      "[2001:db8::1]",
    ]) {
      const error = await failureOf(strict(`http://${host}:${port}/`));
      expect(isAddressRefused(error), host).toBe(true);
    }
  });

  it("does not follow a redirect from an allowed server to a refused address", async () => {
    const target = await startLoopbackServer(undefined, "127.0.0.2");
    const redirecting = await startLoopbackServer((request, response) => {
      const to = request.url === "/inward" ? target.url("/meta-data") : server.url("/");
      response.writeHead(302, { location: to }).end("moved");
    });
    try {
      // Only 127.0.0.1 counts as allowed here, standing for a public server; 127.0.0.2 stands for
      // an internal one.
      const fetchAs = createOutboundFetch({ policy: (address) => address === "127.0.0.1" });
      const followed = await fetchAs(redirecting.url("/outward"));
      expect(await followed.text()).toBe("ok");
      const error = await failureOf(fetchAs(redirecting.url("/inward")));
      expect(isAddressRefused(error)).toBe(true);
      expect(target.seen).toEqual({ connections: 0, requests: 0 });
    } finally {
      await Promise.all([target.close(), redirecting.close()]);
    }
  });
});
