/**
 * Where case fans and an AIO radiator go: the build's InteractiveState when it says, else
 * the default policy below. Slots a case cannot hold are reported, never fatal.
 *
 * Parts arrive in canonical order (canonical-build.ts): the first CaseFan is the build's
 * CaseFan part (the pack with the most fans, then the lowest ID), which a saved fan slot
 * without a `partId` gets.
 *
 * Default policy (no state):
 *   radiator  top when the top row holds it, else front, else side, else bottom; a 120/140 mm
 *             radiator prefers the rear exhaust. Its fans come with it.
 *   case fans every CaseFan part (largest pack first) times its pack quantity, filling slots in the order
 *             front (intake, top down), rear-1 (exhaust), top (from the rear), bottom, side,
 *             skipping slots the radiator covers.
 */
import type { CaseFanSpecs, CoolerSpecs } from '../../../src/model/part.js';
import type { InteractiveState } from '../../../src/model/interactive-state.js';
import type { CaseLayout } from './case-layout.js';
import { deriveSlots, parseSlotId, PANELS, type FanSlot, type Panel } from './slots.js';

export interface FanPart {
  id: string;
  specs: CaseFanSpecs;
}

export interface PlacedFan {
  slot: FanSlot;
  partId: string;
  specs: CaseFanSpecs;
}

export interface PlacedRadiator {
  panel: Panel;
  /** the slots (of the radiator's fan size) it covers, 1..n on its panel */
  slots: FanSlot[];
}

export interface Placement {
  fans: PlacedFan[];
  radiator: PlacedRadiator | null;
}

/** A plain 120 mm fan for state entries when the build has no CaseFan part. */
export const GENERIC_FAN: FanPart = {
  id: 'generic-120',
  specs: { sizeMm: 120, quantity: 1, color: '#1c1d20', rgb: false },
};

const DEFAULT_FAN_ORDER: Panel[] = ['front', 'rear', 'top', 'bottom', 'side'];

export function placeRadiator(
  layout: CaseLayout,
  cooler: CoolerSpecs,
  wanted: string | undefined,
  warnings: string[],
): PlacedRadiator | null {
  const size = cooler.fanSizeMm;
  const n = Math.max(1, Math.round(cooler.radiatorMm / size));
  const slots = deriveSlots(layout, size);
  const fits = (panel: Panel) => {
    const onPanel = slots.filter((s) => s.panel === panel);
    return onPanel.length >= n ? { panel, slots: onPanel.slice(0, n) } : null;
  };
  if (wanted) {
    const placed = (PANELS as readonly string[]).includes(wanted) ? fits(wanted as Panel) : null;
    if (placed) return placed;
    warnings.push(
      `radiator: the case has no room for a ${cooler.radiatorMm} mm radiator at "${wanted}"; placed by the default policy`,
    );
  }
  const order: Panel[] = n === 1 ? ['rear', 'top', 'front', 'side', 'bottom'] : ['top', 'front', 'side', 'bottom'];
  for (const panel of order) {
    const placed = fits(panel);
    if (placed) return placed;
  }
  warnings.push(`radiator: no slot in this case holds a ${cooler.radiatorMm} mm radiator; drawn without it`);
  return null;
}

/** Whether a fan slot is covered by the radiator (same panel, overlapping extent). */
function coveredBy(slot: FanSlot, radiator: PlacedRadiator | null): boolean {
  if (!radiator || slot.panel !== radiator.panel) return false;
  return radiator.slots.some((r) => {
    const d = Math.hypot(r.center[0] - slot.center[0], r.center[1] - slot.center[1], r.center[2] - slot.center[2]);
    return d < (r.sizeMm + slot.sizeMm) / 2 - 2;
  });
}

export function placeFans(
  layout: CaseLayout,
  fanParts: FanPart[],
  state: InteractiveState | null,
  radiator: PlacedRadiator | null,
  warnings: string[],
): PlacedFan[] {
  const placed: PlacedFan[] = [];
  const taken = (slot: FanSlot) => placed.some((p) => p.slot.panel === slot.panel && overlap(p.slot, slot));
  const slotsBySize = new Map<number, FanSlot[]>();
  const slotsFor = (size: number) => {
    let s = slotsBySize.get(size);
    if (!s) slotsBySize.set(size, (s = deriveSlots(layout, size)));
    return s;
  };

  if (state?.fans) {
    for (const entry of state.fans) {
      const part = (entry.partId ? fanParts.find((p) => p.id === entry.partId) : undefined) ?? fanParts[0];
      if (entry.partId && !fanParts.some((p) => p.id === entry.partId)) {
        warnings.push(`fan ${entry.slot}: part ${entry.partId} is not in the build; drew the build's case fan`);
      }
      const fan = part ?? GENERIC_FAN;
      if (!part) warnings.push(`fan ${entry.slot}: the build has no CaseFan part; drew a plain 120 mm fan`);
      if (!parseSlotId(entry.slot)) {
        warnings.push(`fan slot "${entry.slot}" is not a slot name; skipped`);
        continue;
      }
      const slot = slotsFor(fan.specs.sizeMm).find((s) => s.id === entry.slot);
      if (!slot) {
        warnings.push(`fan slot ${entry.slot} does not exist in this case for ${fan.specs.sizeMm} mm fans; skipped`);
        continue;
      }
      if (coveredBy(slot, radiator)) {
        warnings.push(`fan slot ${entry.slot} is taken by the radiator; skipped`);
        continue;
      }
      if (taken(slot)) {
        warnings.push(`fan slot ${entry.slot} is used twice; skipped the second fan`);
        continue;
      }
      placed.push({ slot, partId: fan.id, specs: fan.specs });
    }
    return placed;
  }

  let left = 0;
  for (const part of fanParts) {
    for (let q = 0; q < part.specs.quantity; q++) {
      const free = DEFAULT_FAN_ORDER.flatMap((panel) =>
        slotsFor(part.specs.sizeMm).filter((s) => s.panel === panel),
      ).find((s) => !coveredBy(s, radiator) && !taken(s));
      if (free) placed.push({ slot: free, partId: part.id, specs: part.specs });
      else left++;
    }
  }
  if (left > 0) warnings.push(`${left} case fan(s) do not fit in this case; not drawn`);
  return placed;
}

function overlap(a: FanSlot, b: FanSlot): boolean {
  const d = Math.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1], a.center[2] - b.center[2]);
  return d < (a.sizeMm + b.sizeMm) / 2 - 2;
}
