/**
 * Whether the app's outbound calls (webhooks, remote MCP servers and their sign-in endpoints) may
 * reach this machine or a private network: one setting for all of them (ADR 0056).
 */
export function OutboundAddressNote({ allowPrivate }: { allowPrivate: boolean }) {
  return allowPrivate ? (
    <>
      Addresses on this machine or a private network are allowed (
      <code>TOOLNEXUS_OUTBOUND_ALLOW_PRIVATE=1</code>
      ).
    </>
  ) : (
    <>
      Only public addresses are reached, for webhooks and MCP servers alike; set{" "}
      <code>TOOLNEXUS_OUTBOUND_ALLOW_PRIVATE=1</code> to allow this machine and private networks.
    </>
  );
}
