import { describe, expect, it } from "vitest";
import { reconnectDelayMs } from "./reconnect-delay";

describe("reconnectDelayMs", () => {
  const middle = () => 0.5;

  it("doubles from half a second and stays at ten", () => {
    const delays = [0, 1, 2, 3, 4, 5, 6, 9].map((failures) => reconnectDelayMs(failures, middle));
    expect(delays).toEqual([500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000, 10_000]);
  });

  it("spreads each wait by at most a fifth either way", () => {
    expect(reconnectDelayMs(0, () => 0)).toBe(400);
    expect(reconnectDelayMs(0, () => 1)).toBe(600);
    expect(reconnectDelayMs(8, () => 0)).toBe(8_000);
    expect(reconnectDelayMs(8, () => 1)).toBe(12_000);
  });
});
