// How far ahead a request made through the HTTP API may set its deadline. The API's document
// states it; the engine, which alone knows the moment a request is made, enforces it.

/** One year of 365 days (ADR 0058). */
export const REQUEST_EXPIRY_HORIZON_DAYS = 365;
export const REQUEST_EXPIRY_HORIZON_MS = REQUEST_EXPIRY_HORIZON_DAYS * 24 * 60 * 60 * 1000;
