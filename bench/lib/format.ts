// Number formatting for the results table: short, fixed precision, unit included.
import { type Summary, spreadPercent } from "./stats.ts";

export function ms(value: number): string {
  if (!Number.isFinite(value)) return "–";
  if (value >= 10_000) return `${(value / 1000).toFixed(1)} s`;
  if (value >= 1000) return `${(value / 1000).toFixed(2)} s`;
  if (value >= 10) return `${value.toFixed(0)} ms`;
  return `${value.toFixed(2)} ms`;
}

export function mib(kib: number): string {
  if (!Number.isFinite(kib) || kib <= 0) return "–";
  return `${(kib / 1024).toFixed(0)} MiB`;
}

export function bytes(value: number): string {
  if (value >= 1024 * 1024) return `${(value / 1024 / 1024).toFixed(2)} MiB`;
  if (value >= 1024) return `${(value / 1024).toFixed(1)} KiB`;
  return `${value} B`;
}

export function rate(value: number): string {
  if (!Number.isFinite(value)) return "–";
  return `${Math.round(value).toLocaleString("en-US")}/s`;
}

/** "1.23 s ±4%" for a time summary. */
export function msSpread(summary: Summary): string {
  return `${ms(summary.median)} ±${spreadPercent(summary).toFixed(0)}%`;
}

export function rateSpread(summary: Summary): string {
  return `${rate(summary.median)} ±${spreadPercent(summary).toFixed(0)}%`;
}

/** ours ÷ peer in the measured unit (time: lower is better; calls/s: higher is better), as the targets are phrased. */
export function ratio(ours: number, peer: number): string {
  if (!Number.isFinite(ours) || !Number.isFinite(peer) || ours <= 0 || peer <= 0) return "–";
  return `${(ours / peer).toFixed(2)}×`;
}
