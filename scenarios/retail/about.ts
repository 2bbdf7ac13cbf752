/** The retail world's id and description, apart from the world itself so that listing it loads nothing else. */
export const retailAbout = { id: 'retail', description: 'an online shop: users, a catalogue with variants, orders; cancel, address change, return, exchange' } as const;
