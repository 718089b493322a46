import { useEffect, useState } from 'react';

/** The current time, re-rendering every `intervalMs` while mounted (for countdowns and uptime). */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(id);
  }, [intervalMs]);
  return now;
}
