/** Starts counting the bytes this process allocates on its V8 heap; the function returned gives them. */
export declare function heapCounter(): () => number;
