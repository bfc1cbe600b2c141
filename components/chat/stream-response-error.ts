/**
 * The stream route answered with an error status. The body (the route's JSON error, or a
 * proxy's page) is the message, as before; the status says whether trying again can help.
 */
export class StreamResponseError extends Error {
  readonly status: number;

  constructor(status: number, body: string) {
    super(body || `The chat's stream answered ${status}.`);
    this.name = "StreamResponseError";
    this.status = status;
  }
}
