/** The travel world's id and description, apart from the world itself so that listing it loads nothing else. */
export const travelAbout = { id: 'travel', description: 'an airline: flights with fare classes and seats, reservations with passengers and bags; cancel, change flight, add bags, compensation' } as const;
