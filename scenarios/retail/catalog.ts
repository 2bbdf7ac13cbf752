import type { Product } from './schema.js';

interface CatalogEntry {
  readonly id: string;
  readonly name: string;
  readonly basePrice: number;
  /** Option axes in order; each value may add to the base price. */
  readonly axes: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** Variants that are out of stock, by item id. */
  readonly unavailable?: readonly string[];
}

/**
 * The fixed retail catalogue. It is data, not generated, so that scenarios can name items by readable
 * ids (`tee-blue-m`) and their prices are stable across seeds.
 */
const CATALOG: readonly CatalogEntry[] = [
  { id: 'tee', name: 'T-Shirt', basePrice: 24.99, axes: { color: { black: 0, white: 0, blue: 0, red: 0 }, size: { s: 0, m: 0, l: 0, xl: 2 } }, unavailable: ['tee-red-xl'] },
  { id: 'lamp', name: 'Desk Lamp', basePrice: 45.5, axes: { color: { black: 0, white: 0, silver: 4 }, bulb: { led: 6, halogen: 0 } }, unavailable: ['lamp-silver-halogen'] },
  { id: 'shoes', name: 'Running Shoes', basePrice: 89, axes: { size: { '8': 0, '9': 0, '10': 0, '11': 0 }, color: { black: 0, grey: 0, blue: 5 } }, unavailable: ['shoes-11-blue'] },
  { id: 'backpack', name: 'Backpack', basePrice: 64.95, axes: { color: { black: 0, green: 0, navy: 0 }, capacity: { '20l': 0, '30l': 12 } } },
  { id: 'bottle', name: 'Water Bottle', basePrice: 19.99, axes: { material: { steel: 6, plastic: 0 }, capacity: { '500ml': 0, '1l': 3 } } },
  { id: 'headphones', name: 'Headphones', basePrice: 129, axes: { color: { black: 0, white: 0 }, connection: { wired: 0, wireless: 40 } }, unavailable: ['headphones-white-wired'] },
  { id: 'coffee', name: 'Coffee Maker', basePrice: 79.99, axes: { capacity: { '4cup': 0, '8cup': 20, '12cup': 35 }, finish: { black: 0, steel: 10 } } },
  { id: 'mat', name: 'Yoga Mat', basePrice: 34.5, axes: { thickness: { '4mm': 0, '6mm': 5 }, color: { purple: 0, blue: 0, black: 0 } } },
  { id: 'clock', name: 'Wall Clock', basePrice: 24.99, axes: { style: { modern: 0, classic: 3 }, finish: { black: 0, wood: 5 } } },
  { id: 'jacket', name: 'Rain Jacket', basePrice: 149, axes: { size: { s: 0, m: 0, l: 0, xl: 0 }, color: { navy: 0, olive: 0, yellow: 0 } }, unavailable: ['jacket-xl-olive'] },
  { id: 'keyboard', name: 'Mechanical Keyboard', basePrice: 112.4, axes: { switches: { red: 0, brown: 0, blue: 0 }, layout: { us: 0, uk: 4 } } },
  { id: 'kettle', name: 'Tea Kettle', basePrice: 39.9, axes: { material: { glass: 8, steel: 0 }, finish: { silver: 0, black: 0 } } },
];

function cartesian(axes: Readonly<Record<string, Readonly<Record<string, number>>>>): { options: Record<string, string>; add: number }[] {
  let combos: { options: Record<string, string>; add: number }[] = [{ options: {}, add: 0 }];
  for (const [axis, values] of Object.entries(axes)) {
    combos = combos.flatMap((c) => Object.entries(values).map(([v, add]) => ({ options: { ...c.options, [axis]: v }, add: c.add + add })));
  }
  return combos;
}

/** The product names of the catalogue ("Desk Lamp"), for the words that would name a competing item. */
export const productNames = (): string[] => CATALOG.map((e) => e.name);

/** Every option value of the catalogue ("red", "wireless", "6mm"), for the words that would name a competing variant. */
export const optionValues = (): string[] => [...new Set(CATALOG.flatMap((e) => Object.values(e.axes).flatMap((values) => Object.keys(values))))];

/** The catalogue as database records, keyed by product id. */
export function buildCatalog(): Record<string, Product> {
  const out: Record<string, Product> = {};
  for (const entry of CATALOG) {
    const variants: Product['variants'] = {};
    for (const { options, add } of cartesian(entry.axes)) {
      const itemId = [entry.id, ...Object.values(options)].join('-');
      variants[itemId] = { itemId, options, price: Math.round((entry.basePrice + add) * 100) / 100, available: !(entry.unavailable ?? []).includes(itemId) };
    }
    out[entry.id] = { id: entry.id, name: entry.name, variants };
  }
  return out;
}
