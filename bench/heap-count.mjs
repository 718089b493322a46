/**
 * Counts the bytes a process allocates on its V8 heap, which no Node API reports: every GC's freed bytes
 * (V8's GC profiler) plus the heap in use now, less the heap in use at the start. Plain JavaScript, so the
 * heap meter can load it into a daemon that runs without tsx.
 */
import v8 from 'node:v8';

/** Starts counting; the function returned gives the bytes allocated since. */
export function heapCounter() {
  const profiler = new v8.GCProfiler();
  const atStart = v8.getHeapStatistics().used_heap_size;
  let freed = 0;
  profiler.start();
  return () => {
    // The profiler hands its GCs over only when stopped; it is started again at once.
    const { statistics } = profiler.stop();
    profiler.start();
    for (const gc of statistics)
      freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize;
    return v8.getHeapStatistics().used_heap_size - atStart + freed;
  };
}
