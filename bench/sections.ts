import type { BenchSection } from "./bench-section";
import { loopOverheadSection } from "./loop-overhead-section";
import { memoryAtRestSection } from "./memory-at-rest-section";
import { suspensionSection } from "./suspension-section";

/** Every section of `npm run bench`, in run order; add new ones here. */
export const sections: BenchSection[] = [loopOverheadSection, suspensionSection, memoryAtRestSection];
