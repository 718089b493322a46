/**
 * Loaded into a benchmarked process with `node --import ./bench/heap-meter.mjs`: on SIGUSR2 it prints
 * `heap-meter <bytes allocated on the V8 heap since start>` on stdout (read by `heapAllocated` in
 * `process-cost.ts`).
 */
import { heapCounter } from './heap-count.mjs';

const allocated = heapCounter();
process.on('SIGUSR2', () => process.stdout.write(`heap-meter ${allocated()}\n`));
