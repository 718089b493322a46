/** One target's single-client stream figures: median time to first byte and to the end, in ms. */
export interface StreamSample {
  ttfb: number;
  total: number;
  errors: number;
}
