import { describe, expect, it } from 'vitest';
import { joinSegments } from '../../src/ground/perturb.js';
import { makeRng } from '../../src/ground/seeds.js';
import { ScriptedUser } from '../../src/user/index.js';
import { readAgentMessage } from '../../src/user/reading.js';
import { retail, scenario } from '../helpers.js';
import { getWorld, loadScenarios } from '../../scenarios/index.js';

const userFor = (id: string, seed = 'u') => new ScriptedUser(scenario(id), retail.userLanguage, makeRng(seed));

describe('scripted user', () => {
  it('opens with the goal and protects the entities it mentions', () => {
    const user = userFor('cancel-pending-mistake');
    const opening = user.opening().segments;
    const text = joinSegments(opening);
    expect(text).toContain('#W9000201');
    expect(text).toContain('emma.novak@example.org');
    expect(opening.filter((s) => s.protected).map((s) => s.text)).toEqual(expect.arrayContaining(['#W9000201', 'emma.novak@example.org']));
  });

  it('varies the phrasing with the seed', () => {
    const openings = new Set(Array.from({ length: 12 }, (_, i) => joinSegments(userFor('cancel-pending-mistake', `s${i}`).opening().segments)));
    expect(openings.size).toBeGreaterThan(1);
  });

  it('says what each message is about: a statement of the request may hold back details, an answer may not', () => {
    const user = userFor('return-to-gift-card');
    const opening = user.opening();
    expect(opening.about).toMatchObject({ intent: 'return', states: true });
    // The refund has a policy default, so a user who wants a gift card never holds it back.
    expect(opening.about.deferrable).toEqual(expect.arrayContaining(['order', 'items', 'email', 'name', 'zip']));
    expect(opening.about.deferrable).not.toContain('refund');
    expect(opening.segments.find((s) => s.slot === 'items')).toMatchObject({ protected: true, part: 'request' });
    const answer = user.respond('Which order is it? Please give me the order number.');
    expect(answer.kind === 'message' && answer.about).toMatchObject({ states: false, deferrable: [] });
    expect(answer.kind === 'message' && answer.segments.find((s) => s.protected)).toMatchObject({ slot: 'order', part: 'slot:order' });
  });

  it('holds back what the scenario says to reveal only when asked', () => {
    const user = userFor('missing-info-cancel');
    const text = joinSegments(user.opening().segments);
    expect(text).not.toContain('W9000811');
    expect(text).not.toMatch(/Daniel|19106/);
    const identity = user.respond('Could you give me your email address, or your name and zip code?');
    expect(identity.kind).toBe('message');
    expect(identity.kind === 'message' && joinSegments(identity.segments)).toMatch(/Daniel Osei.*19106/);
    const order = user.respond('Which order is it? Please give me the order number.');
    expect(order.kind === 'message' && joinSegments(order.segments)).toContain('#W9000811');
  });

  it('confirms the action it wants and declines another order', () => {
    const user = userFor('cancel-pending-mistake');
    user.opening();
    const yes = user.respond("To confirm: I'll cancel order #W9000201. Shall I proceed? (yes/no)");
    expect(yes.kind === 'message' && joinSegments(yes.segments)).toMatch(/^Yes/);
    const no = user.respond("To confirm: I'll cancel order #W1234567. Shall I proceed? (yes/no)");
    expect(no.kind === 'message' && joinSegments(no.segments)).toMatch(/^No, .*#W9000201/);
  });

  it('agrees only to what it wants: declines offers it never asked for, accepts its own request in other words', () => {
    const answer = (id: string, text: string, world = retail) => {
      const user = new ScriptedUser(world === retail ? scenario(id) : (loadScenarios(world).find((s) => s.id === id) as never), world.userLanguage, makeRng('w'));
      user.opening();
      const r = user.respond(text);
      return r.kind === 'message' ? { act: r.act, text: joinSegments(r.segments) } : { act: undefined, text: '' };
    };
    // A cancellation, proposed in other words: accepted.
    for (const text of [
      'Shall I go ahead with the cancellation of order #W9000201? (yes/no)',
      "I can cancel order #W9000201 for you now; it was placed by mistake, so you'll get a full refund. Would you like me to proceed?",
      '**Order #W9000201** is pending. Do you want me to cancel it? Please confirm.',
    ]) expect(answer('cancel-pending-mistake', text).act, text).toBe('accept');
    // Something else, for a user who wants a cancellation: declined, and the request said again.
    for (const text of [
      'Before I do that, would you like me to upgrade the shipping to express for $9.99? Please confirm.',
      'I can transfer you to a human agent who can help further. Shall I proceed?',
      'Would you like me to add $25.00 to your gift card instead? (yes/no)',
      'Would you like me to exchange the item in order #W9000201 for another color instead? Please confirm.',
      'Would you like me to return the items in order #W9000201 instead? (yes/no)',
      'Would you like to purchase a new order with express shipping? Shall I proceed?',
    ]) {
      const r = answer('cancel-pending-mistake', text);
      expect(r.act, text).toBe('decline');
      expect(r.text, text).toMatch(/^No, .*#W9000201/);
    }
    // A payment cancelled to put another in its place is a change of payment, not the cancellation it wants: no yes.
    for (const text of [
      'Would you like me to cancel the current payment and reapply the gift card to order #W9000201?',
      'To resolve this, I will need to cancel the existing payment and then charge your Visa. Would you like me to proceed with canceling the existing payment on order #W9000201?',
    ]) expect(answer('cancel-pending-mistake', text).act, text).not.toBe('accept');
    // Its own cancellation with an order placed again beside it: no plain yes.
    expect(answer('cancel-pending-mistake', 'Would you like me to cancel order #W9000201 and reorder the correct one for you?').act).not.toBe('accept');
    // What the user may reorder itself is no new order; a cancellation told in a summary's line, or of the payment and the order
    // together, is still its own.
    for (const text of [
      "I'll cancel order #W9000201 so you can reorder the correct one. Shall I go ahead?",
      'Please confirm the following:\nOrder ID: #W9000201\nAction: Cancel\nRefund: $45.99 to your original payment method\n\nShall I proceed? (yes/no)',
      'Would you like me to cancel the payment and the order #W9000201?',
    ]) expect(answer('cancel-pending-mistake', text).act, text).toBe('accept');
    // Travel: a cancellation wanted; bags, a certificate, a new booking and a flight change are not.
    const travel = getWorld('travel');
    const cancel = 'cancel-economy-to-travel-credit';
    for (const text of [
      'Would you like me to add 2 checked bags to reservation R900202? Please confirm (yes/no).',
      'I can also issue a travel certificate of $100.00 for the trouble. Shall I go ahead?',
      'Shall I book a new reservation for you on flight SK203? (yes/no)',
      'Would you like me to change the flight on reservation R900202 to SK203 instead? Please confirm.',
    ]) expect(answer(cancel, text, travel).act, text).toBe('decline');
    // Its own change in other words, with "new" in it: accepted.
    const change = loadScenarios(travel).find((s) => s.id === 'change-flight-pay-difference');
    const flightUser = new ScriptedUser(change as never, travel.userLanguage, makeRng('w'));
    flightUser.opening();
    const newFlights = flightUser.respond('Shall I book the new flights on reservation R900301 for you? (yes/no)');
    expect(newFlights.kind === 'message' && newFlights.act).toBe('accept');
    expect(answer(cancel, `To confirm: I'll cancel reservation ${'R900202'} (reason: change of plans); $418.00 will be added to your travel credit. Shall I proceed? (yes/no)`, travel).act).toBe('accept');
    // A change told by its effect is that change: a cancellation voided, a flight rescheduled, bags as "extra bags".
    expect(answer('cancel-pending-mistake', 'Order #W9000201 has not shipped, so I can void it and refund $54.20 to your card. Shall I go ahead?').act).toBe('accept');
    for (const text of [
      'I can put you on the earlier flight SK203 the same day, at no extra cost. Shall I go ahead?',
      'There is a seat on SK203 the day before. Want me to reschedule your trip to it?',
      "I'll put two extra checked bags on R900202 for $100 on your card. Shall I go ahead?",
    ]) expect(answer(cancel, text, travel).act, text).toBe('decline');
    // A new cost to a user whose request costs nothing is another change, whatever it is called; its own change with one
    // beside it is a plan of two. Money told as it stands, coming back, zero, waived, or on a condition is no new cost.
    for (const text of [
      'I can get both of you into the lie-flat seats on reservation R900202 for an extra $1,340.00 on your Visa. Would you like me to do that?',
      "Here's the updated itinerary for R900202:\n- New departure: 07:00, May 22\n- Fare difference: $24 (to be charged to your credit card)\n\nWould you like me to proceed? Please reply yes.",
      'Found one: SK203 on May 23 for both of you. **Total due today:** $182.00 (Visa ending 2202). Want me to lock it in?',
      "You'd only pay $48 more to be on the morning flight of R900202 instead. Shall I go ahead?",
    ]) expect(answer(cancel, text, travel).act, text).toBe('decline');
    expect(answer('cancel-pending-mistake', 'I can make the mouse in order #W9000201 the wireless one for an extra $19.04. Would you like me to do that?').act).toBe('decline');
    const twoSteps = answer(cancel, '1. Lock in SK203 on May 23 for an extra $312 on your Visa.\n2. Then cancel reservation R900202 for a full refund.\n\nShall I go ahead?', travel);
    expect(twoSteps.act).toBeUndefined();
    expect(twoSteps.text).toMatch(/R900202/);
    for (const text of [
      'To confirm: I will cancel reservation R900202; the $418.00 you were charged will be refunded to your Visa. Shall I proceed?',
      'Reservation R900202, original payment: $418.00 on your Visa ending 2202. Shall I proceed with the cancellation?',
      'I can cancel R900202 at no extra cost to you. Shall I proceed?',
      "You won't be charged anything to cancel R900202, and you'll pay nothing more. Shall I proceed?",
      "We're not charging you a fee for cancelling R900202. Shall I proceed?",
      'Normally a $50 fee would be charged to cancel, but I have waived it for R900202. Shall I cancel it?',
      "There won't be an extra $75 charge for this cancellation of R900202. Shall I proceed?",
      '2 passengers x $189.00 fare + $40.00 insurance = $418.00, all back as travel credit. Shall I cancel R900202?',
    ]) expect(answer(cancel, text, travel).act, text).toBe('accept');
    // Money coming to the user is no cost of its compensation.
    expect(answer('compensation-gold-delay', 'As a Gold member you get an extra $50 per passenger for the delay on R900501, as a travel certificate. Shall I send it?', travel).act).not.toBe('decline');
    for (const text of [
      "That's $50 per passenger for the delay on R900501, so an additional $100 for the two of you. Would you like me to proceed?",
      'For the delay on R900501, each passenger gets $50, so $100 extra toward your next trip. Shall I go ahead?',
    ]) expect(answer('compensation-gold-delay', text, travel).act, text).not.toBe('decline');
    expect(answer('cancel-pending-mistake', 'If you reorder later, the new order will be charged to your card at $54.20. Shall I cancel order #W9000201 now?').act).toBe('accept');
    expect(answer('exchange-tee-color', 'I can exchange the tee in order #W9000501 for the blue one for an extra $5.00 on your card. Shall I go ahead?').act).toBe('accept');
    // An out offered beside the go-ahead proposes nothing; a reply-yes cue names the change.
    expect(answer(cancel, 'Reservation R900202 is refundable. Reply "yes" to cancel it, or "no" to keep it.', travel).act).toBe('accept');
    expect(answer('exchange-tee-color', 'I can exchange the tee in order #W9000501 for the blue one. Please reply yes to confirm, or no to cancel this request.').act).not.toBe('decline');
    // A refusal before the offer is no proposal of what it refuses.
    expect(answer(cancel, "I can't change the flight on R900202, but I can cancel it for a full refund. Shall I proceed?", travel).act).toBe('accept');
    // An unasked-for word beside its own change is no plain no; insurance told as the record stands is no offer.
    expect(answer('exchange-tee-color', 'I can exchange the tee in order #W9000501 for the premium one, essentially an upgrade. Shall I go ahead with the exchange?').act).not.toBe('decline');
    expect(answer(cancel, 'Reservation R900202 has travel insurance, so cancelling it is fully refunded. Would that work for you?', travel).act).toBe('accept');
    expect(answer(cancel, 'Travel insurance for this trip is $30. Would that work for you?', travel).act).toBe('decline');
    // A hand-off in other words is a hand-off.
    for (const text of ['Would you like me to connect you with a specialist?', 'Want me to get a real person on the line for you?']) expect(answer(cancel, text, travel).act, text).toBe('decline');
    // "Transfer you" after a word of human agents is a hand-off, whatever else the message speaks of.
    expect(answer(cancel, "I can't cancel R900202 under the fare rules. For anything further I recommend contacting human agents. Would you like me to transfer you?", travel).act).toBe('decline');
    // A consequence told beside a go-ahead ("no further cancellations will be possible") and a way out of
    // "adjust/cancel" propose no cancellation: a change of items is no yes to a cancellation user.
    const items = "Thanks for confirming order #W9000201.\n\nHere's the proposed modification for your pending order (it can only be done once, after which no further item changes, cancellations, or other edits will be possible):\n\n- Current item: Jacket, black\n- New item: Jacket, red\n\nDoes everything look correct? Please reply YES to proceed or NO if you'd like to adjust/cancel.";
    expect(answer('cancel-pending-mistake', items).act).not.toBe('accept');
    // An address put on an order ("proceed with this address") is an address change, and certificates issued beside a
    // cancellation are compensation: neither is a yes to a user who wants only the cancellation.
    const address = "Let's use the address from your other order:\n\n- 619 Broadway, Seattle, WA 98187\n\nPlease confirm if you would like to proceed with this address for order #W9000201.";
    expect(answer('cancel-pending-mistake', address).act).toBe('decline');
    expect(answer(cancel, 'Shall I proceed with cancelling R900202, including issuing $100 in travel certificates for the trouble? Reply "yes" if so.', travel).act).not.toBe('accept');
    expect(answer(cancel, 'Shall I proceed with cancelling reservation R900202? Reply "yes" if so.', travel).act).toBe('accept');
    // Changes told by what they do: money put on the profile, a seat on another flight, extra suitcases, an order called
    // off, a pair sent back, a table of now and after, a hand-off to someone who picks it up; and "both" to a user with one
    // request. No yes (a no where the go-ahead's own words name it; else it says what it wants).
    for (const text of [
      'As a gold member you qualify for something for the trouble. I can put $300 on your profile for a future flight. Do you want me to go ahead with that?',
      'The only nonstop with seats is SK 304. I can put both of you on it instead of SK 150. Yes?',
      'For the two extra suitcases the cost is $50 each, on your card. Shall I put this through?',
      '| Flight | Now | After |\n|---|---|---|\n| SK 044 | economy | business |\n\nWant me to pull the trigger?',
      'A specialist on our team can pick this up from here and review it. Shall I go ahead?',
    ]) expect(answer(cancel, text, travel).act, text).not.toBe('accept');
    // Another change offered instead of a cancellation: the cancellation named beside it is what it replaces.
    for (const text of [
      'Rather than cancelling the order entirely, I can move the $318.52 charge on order #W9000201 over to your Visa ending in 8822. Would you like me to do that?',
      "You don't need to cancel order #W9000201: since it's pending, I can pay for it with your Mastercard instead. Shall I?",
      'Instead of cancelling order #W9000201, how about we send it to your work address instead? Let me know if I should proceed!',
    ]) expect(answer('cancel-pending-mistake', text).act, text).not.toBe('accept');
    expect(answer('cancel-pending-mistake', 'Instead of changing the address, I can cancel order #W9000201 for you. Shall I go ahead with the cancellation?').act).toBe('accept');
    expect(answer('address-change-pending', 'Order #W9000301 is still pending, so I can kill it before it ships. Want me to pull the plug?').act).toBe('decline');
    expect(answer('cancel-pending-mistake', 'Order #W9000201 is pending. I can reroute it to 17 Quarry Rd, Burlington VT 05401. Confirm?').act).toBe('decline');
    expect(answer('address-change-pending', 'I can call off order #W9000301 since it has not shipped yet. Is that what you want me to do?').act).toBe('decline');
    expect(answer('cancel-pending-mistake', 'We have the size 8 in the same style. You would send the size 7.5 pair back using the label we e-mail you. Would you like me to set that up?').act).not.toBe('accept');
    expect(answer(cancel, 'I can cancel reservation R900202 and also put $100 on your profile for the trouble. Shall I do both?', travel).act).not.toBe('accept');
    // A change named only as a modification is one of the world's modifying changes: no yes from a user who wants a
    // cancellation, a yes from one who wants its items changed.
    const modification = "The new lamp costs less than the old one on order #W9000201. You can either:\n1. Take the difference on another card.\n2. Confirm if you'd like to proceed with the modification using the current gift card.";
    expect(answer('cancel-pending-mistake', modification).act).toBe('decline');
    expect(answer(cancel, 'Shall I go ahead and modify reservation R900202 as discussed?', travel).act).toBe('decline');
    expect(answer('exchange-tee-color', "Confirm if you'd like to proceed with the modification of order #W9000501.").act).toBe('accept');
    // A change told only by what it does to a value gets no yes from a user who wants something else: a trade, a
    // cabin that would go from one class to another, a new way to pay, a bag tacked on, an item received back.
    for (const [id, text, world] of [
      ['cancel-pending-mistake', 'I can trade the blue kettle in #W9000201 for the steel one; the difference of $4.10 goes back to your card. Sound good?', retail],
      ['cancel-economy-to-travel-credit', 'Both flights on R900202 would go from economy to business. Cost: $300 on your card. Proceed?', travel],
      ['cancel-pending-mistake', 'Order #W9000201 will then be paid via PayPal, and your card gets the $40 back. Good to go?', retail],
      ['cancel-economy-to-travel-credit', 'One more suitcase on R900202 runs $50. Want me to tack it on?', travel],
      ['cancel-pending-mistake', 'The headphones in #W9000201 qualify; the refund goes to your card once the item is received at our warehouse. Reply YES to continue or NO to cancel.', retail],
      // Another way offered ("or NO if you would rather cancel"), and what a change leaves alone, propose nothing.
      ['cancel-economy-to-travel-credit', 'R900202 will have SK 203 on May 23 replacing SK 150. Should I proceed? Reply YES to continue, or NO if you would rather cancel the trip.', travel],
      ['cancel-economy-to-travel-credit', "Here's the summary:\n- Reservation: R900202\n- Current flight: SK 136, May 16\n- New flight: SK 290, May 16\n\nThe cancellation fee you read about does not apply to a same-day switch. Does everything look correct?", travel],
      // A delivery pointed elsewhere, or an address block after "ship to:", is a change of address.
      ['cancel-pending-mistake', 'I will point the delivery of order #W9000201 to 88 Harbor Road, Boston. Is that okay?', retail],
      ['cancel-pending-mistake', 'To confirm, order #W9000201 will ship to:\n\nNoah Brown\n88 Harbor Road\nBoston\n\nIs this correct?', retail],
    ] as const) expect(answer(id, text, world).act, text).not.toBe('accept');
    // A note that tells the change itself still names it: a return is no cancellation.
    expect(answer('cancel-pending-mistake', 'Please note: once the return for #W9000201 is processed, it cannot be cancelled, and you will ship the kettle back within 14 days. Would you like me to proceed?').act).not.toBe('accept');
    // Its own change proposed the same way still gets its yes.
    expect(answer('cancel-pending-mistake', "Here's the proposed cancellation of order #W9000201 (after it, no further changes will be possible).\n\nPlease reply YES to proceed or NO if you'd like to adjust it.").act).toBe('accept');
  });

  it('says neither yes nor no to a go-ahead it cannot place, and says what it wants instead', () => {
    const answer = (id: string, text: string) => {
      const user = userFor(id, 'n');
      user.opening();
      const r = user.respond(text);
      return r.kind === 'message' ? { act: r.act, text: joinSegments(r.segments) } : { act: 'ended', text: '' };
    };
    // A plan of its change and another: no yes, and the request said again.
    const plan = 'To confirm, you want to:\n1. Exchange the lamp in order #W9000201 for the white one.\n2. Cancel order #W9000201 because it was ordered by mistake.\n\nPlease reply "yes" to proceed with these actions.';
    for (const text of [
      plan,
      // A change no world has words for, in the go-ahead or around it.
      'I can reinstate your previous order instead. Shall I proceed? (yes/no)',
      'The price of $404 includes the upgrade for order #W9000201. Please confirm if you would like to proceed with this change.',
    ]) {
      const r = answer('cancel-pending-mistake', text);
      expect(r.act, text).toBeUndefined();
      expect(r.text, text).toMatch(/#W9000201/);
      expect(r.text, text).not.toMatch(/^(Yes|No)\b/);
    }
    // Only the actions of a list propose: details of the record under a colon do not ("Insurance: none").
    const described = 'To proceed with cancelling order #W9000201, please confirm the details:\n\n- Status: pending\n- Insurance: none\n- Membership: gold\n\nDo you confirm and want to proceed with the cancellation?';
    expect(answer('cancel-pending-mistake', described).act).toBe('accept');
    // The way out offered beside a go-ahead proposes nothing: a cancellation user is not asked for a cancellation here.
    expect(answer('exchange-tee-color', 'Please reply "yes" to proceed with the exchange of order #W9000501, or "no" if you want to cancel this request.').act).toBe('accept');
    // A discount nobody asked for: no.
    expect(answer('cancel-pending-mistake', 'I can offer you a 10% discount on your next order instead. Would you like me to proceed with that?').act).toBe('decline');
  });

  it('answers a choice with what its request holds, or by saying what it wants', () => {
    // A request that names the card it pays with: the choice names it.
    const base = scenario('cancel-pending-mistake');
    const first = base.user.requests[0] as (typeof base.user.requests)[number];
    const paying = { ...base, user: { ...base.user, requests: [{ ...first, slots: { ...first.slots, payment: 'credit_card_9001' } }] } };
    const payer = new ScriptedUser(paying, retail.userLanguage, makeRng('c'));
    payer.opening();
    const card = payer.respond('You have two cards on file: credit_card_9001 and credit_card_9002. Which card would you like to use?');
    expect(card.kind === 'message' && joinSegments(card.segments)).toContain('credit_card_9001');
    // One it cannot pick from: it says it does not know, and what it wants.
    const other = userFor('cancel-pending-mistake');
    other.opening();
    const unknown = other.respond('You have two cards on file: credit_card_9001 and credit_card_9002. Which card would you like to use?');
    expect(unknown.kind === 'message' && joinSegments(unknown.segments)).toMatch(/not sure|don't know/i);
    // Alternatives that are actions: it says what it wants, with no apology for a detail it lacks.
    const user = userFor('cancel-pending-mistake');
    user.opening();
    const action = user.respond('I can help with order #W9000201. Would you like to cancel it or change its address?');
    expect(action.kind === 'message' && joinSegments(action.segments)).toMatch(/cancel/i);
    expect(action.kind === 'message' && joinSegments(action.segments)).not.toMatch(/not sure|don't know/i);
    expect(action.kind === 'message' && action.act).toBeUndefined();
    expect(user.confusions).toEqual([]);
  });

  it('gives no yes to a go-ahead that names no change when the message around it also offers something else', () => {
    const travel = getWorld('travel');
    const change = loadScenarios(travel).find((s) => s.id === 'change-flight-pay-difference');
    const reply = (text: string) => {
      const u = new ScriptedUser(change as never, travel.userLanguage, makeRng('p'));
      u.opening();
      const r = u.respond(text);
      return r.kind === 'message' ? r.act : undefined;
    };
    // Its own change alone around it: yes.
    expect(reply('Moving the flight on reservation R900301 to SK 203 costs $40 more. Please confirm if you would like to proceed with this change.')).toBe('accept');
    // An upgrade, or bags added, beside it: neither yes nor no.
    expect(reply('The total extra cost for moving the flight and upgrading all passengers to business is $795. Please confirm if you would like to proceed with this change.')).toBeUndefined();
    expect(reply('You want to change your flight on reservation R900301 to SK 203. You wish to add one more, bringing the total to 2 checked bags. Do you confirm these changes?')).toBeUndefined();
  });

  it('reads a plan listed as changes as what a go-ahead authorises, whatever sentence says "I will"', () => {
    const user = userFor('cancel-pending-mistake');
    user.opening();
    const plan = 'Here is the complete plan:\n\n1. Exchange on order #W9000202: the lamp for the black one.\n2. Cancellation on order #W9000201:\n   - I will cancel the order and refund $40.\n\nShall I go ahead with all of this?';
    const r = user.respond(plan);
    expect(r.kind === 'message' && r.act).toBeUndefined();
    // A list of one change, its own, is still a yes.
    const own = userFor('cancel-pending-mistake');
    own.opening();
    const single = own.respond('Here is the plan:\n\n1. Cancellation of order #W9000201.\n2. Refund of $40 to your card.\n\nShall I go ahead?');
    expect(single.kind === 'message' && single.act).toBe('accept');
    // Another variant of an item, proposed by its result, is an exchange the cancelling user declines.
    const variant = userFor('cancel-pending-mistake');
    variant.opening();
    const next = variant.respond('Would you like me to proceed with the next available option for the Patio Umbrella, priced at $288.82?');
    expect(next.kind === 'message' && next.act).toBe('decline');
  });

  it('gives a detail asked beside a go-ahead first, and says no yes with it', () => {
    const user = userFor('missing-info-cancel');
    user.opening();
    const r = user.respond('Could you give me your email address, or your name and zip code? Then shall I go ahead with the cancellation?');
    expect(r.kind === 'message' && joinSegments(r.segments)).toMatch(/Daniel Osei.*19106/);
    expect(r.kind === 'message' && r.act).toBeUndefined();
  });

  it('reads "ID" as an id, not as "I\'d" proposing a change', () => {
    const user = userFor('cancel-pending-mistake');
    user.opening();
    // "item ID 1355937109 (an exchange item)" proposes nothing; the go-ahead names the cancellation.
    const r = user.respond('Order #W9000201 has item ID 1355937109 (an exchange item). Shall I proceed with the cancellation?');
    expect(r.kind === 'message' && r.act).toBe('accept');
    // The proposal is an exchange written as a list; "no more changes or cancellation" around it is no proposal to cancel.
    const other = userFor('cancel-pending-mistake');
    other.opening();
    const exchange = other.respond('Proposed change for order #W9000201:\n- Change item ID 1355937109 to item ID 9949163720 (black dial).\n\nNote: the order locks afterwards (no more changes or cancellation). Reply YES to proceed!');
    expect(exchange.kind === 'message' && exchange.act).toBeUndefined();
  });

  it('reads a go-ahead between alternatives as a pick, not a yes', () => {
    const user = userFor('return-to-gift-card');
    user.opening();
    const r = user.respond('Should I refund it to the credit card ending in 1234, or to a gift card?');
    expect(r.kind === 'message' && r.act).toBeUndefined();
    expect(r.kind === 'message' && joinSegments(r.segments)).toMatch(/gift card/i);
  });

  it('records a question it cannot place instead of guessing', () => {
    const user = userFor('cancel-pending-mistake');
    user.opening();
    const step = user.respond('What is your favourite colour?');
    expect(step.kind === 'message' && joinSegments(step.segments)).toMatch(/^Sorry, I'm not sure what you're asking\. .*cancel.*#W9000201/);
    expect(user.confusions).toEqual([{ turn: 1, agentText: 'What is your favourite colour?' }]);
  });

  it('moves to its next request after a statement and ends after the last', () => {
    const user = userFor('multi-cancel-and-address');
    user.opening();
    const next = user.respond('Order #W9000701 is now cancelled. Is there anything else I can help you with?');
    expect(next.kind === 'message' && joinSegments(next.segments)).toContain('#W9000702');
    expect(user.respond('The address is changed.')).toEqual({ kind: 'end', reason: 'done' });
  });

  it('ignores what a statement mentions: only questions and requests ask', () => {
    // The address and "try again later" are said, not asked; "anything else?" asks nothing about the request.
    expect(readAgentMessage('The shipping address is now 1 Main St. Please try again later. Is there anything else?', retail.userLanguage).asks).toEqual([]);
    expect(readAgentMessage('Please give me your email.', retail.userLanguage).asks.map((a) => a.kind)).toEqual(['identity']);
  });

  it('stops at the turn limit', () => {
    const user = new ScriptedUser(scenario('cancel-pending-mistake'), retail.userLanguage, makeRng('t'), 3);
    user.opening();
    user.respond('Hmm?');
    user.respond('Hmm?');
    expect(user.respond('Hmm?')).toEqual({ kind: 'end', reason: 'turn-limit' });
  });
});


/** What a user who wants `id`'s change answers `text` with: accept, decline or none. */
const ans = (w: string, id: string, text: string) => {
  const world = getWorld(w);
  const user = new ScriptedUser(loadScenarios(world).find((s) => s.id === id) as never, world.userLanguage, makeRng('x'));
  user.opening();
  const r = user.respond(text);
  return r.kind === 'message' ? (r.act ?? 'none') : 'none';
};
describe('scripted user identity', () => {
  it('offers the other identity when asked again, as a person whose e-mail was not found would', () => {
    const user = userFor('cancel-pending-mistake');
    user.opening();
    const text = (t: string) => {
      const step = user.respond(t);
      return step.kind === 'message' ? joinSegments(step.segments) : '';
    };
    expect(text("I couldn't find an account. Could you give me your email address, or your name and zip code?")).toMatch(/Emma Novak.*43004/);
    expect(text('Could you give me your email address once more?')).toContain('emma.novak@example.org');
  });
  it('says no to a default address, a payment method or a passenger details change it never asked for, asks where a default address may be what it means, and reads "that change" by the message around it', () => {
    // "That change" is the one told before it, the address: no yes from a user who wants an exchange, no no from one who wants the
    // address changed.
    const thatChange = "Order #W9000301 hasn't shipped, so the simplest fix is to update its shipping address to 17 Pine Lane, Austin, TX 78701, with no cancellation or reorder needed. Want me to make that change to the order?";
    expect(ans('retail', 'exchange-tee-color', thatChange)).not.toBe('accept');
    expect(ans('retail', 'address-change-pending', thatChange)).not.toBe('decline');
    const decline: [string, string, string][] = [
      ['retail', 'cancel-pending-mistake', 'I have your new address as 77 Pinecrest Blvd, Charlotte, NC 28202. Please confirm (yes/no) that you\'d like me to save this as the default address on your account profile.'],
      ['retail', 'exchange-tee-color', 'Order #W9000201 is paid with your Visa. I can switch it to gift card gift_card_100 (balance $500). Shall I go ahead?'],
      ['retail', 'return-one-of-two', 'Shall I change the payment method on #W9000201 to PayPal?'],
      ['travel', 'change-flight-pay-difference', 'I can update the passenger details on R900301: replace Kevin Park with Daniel Park. The flights and bags stay the same. Shall I go ahead?'],
    ];
    const neither: [string, string, string][] = [
      // To a user who wants an order's address changed, the default address may be what it means: it asks.
      ['retail', 'address-change-pending', 'I can update the default address on your profile to 17 Pine Lane, Austin, TX 78701. Would you like me to do that?'],
      // A plan of two steps under "both steps" is more than one change.
      ['travel', 'change-flight-pay-difference', 'Here is the plan for R900301:\n\n1. Change flights: move you to SK 203 on June 14, fare difference +$120\n2. Add travel insurance: $30\n\nShall I go ahead with both steps?'],
    ];
    for (const [w, id, t] of decline) expect(ans(w, id, t), t).toBe('decline');
    for (const [w, id, t] of neither) expect(ans(w, id, t), t).toBe('none');
  });

  it('says no to a cabin change to business, a receipt re-sent and a passenger correction it never asked for, and yes to its own change told as "edit" or "adds"', () => {
    const decline: [string, string, string][] = [
      ['travel', 'change-flight-pay-difference', 'Cabin change summary for R900301:\n\n| Flight | Current cabin | New cabin | Difference |\n|---|---|---|---|\n| SK 152 | economy | business | $412 |\n\nPlease confirm these details (yes/no).'],
      ['retail', 'cancel-pending-mistake', "I can re-send the receipt for order #W9000201 to your email. This won't change anything about the order. Want me to re-send it?"],
      ['travel', 'cancel-economy-to-travel-credit', "The second passenger's date of birth on R900202 is listed as 1995-08-14. Would you like me to correct Hana Kim's passenger details to 1995-04-18?"],
    ];
    const accept: [string, string, string][] = [
      ['retail', 'address-change-pending', 'Since #W9000301 is still pending, I can simply edit its shipping address to 5 Orchard Row, Madison, WI 53703. Would you like me to make that update?'],
      ['travel', 'bags-economy-extra-fee', 'The update for R900401 adds 2 checked bags (from 1 to 3 in total), $50 each. Shall I submit it?'],
    ];
    for (const [w, id, t] of decline) expect(ans(w, id, t), t).toBe('decline');
    for (const [w, id, t] of accept) expect(ans(w, id, t), t).toBe('accept');
    // A flight put in another's place, "First, …" and an order sent to the user's home address are the users' own changes.
    expect(ans('travel', 'change-flight-pay-difference', 'Shall I replace SK 152 with SK 203 on reservation R900301?')).not.toBe('decline');
    expect(ans('travel', 'change-flight-pay-difference', "No cabin change is involved. First, I'll move R900301 to SK 203 on June 14. Shall I proceed?")).not.toBe('decline');
    expect(ans('retail', 'address-change-pending', 'Shall I send order #W9000301 to your home address at 17 Pine Lane, Austin, TX 78701 instead?')).toBe('accept');
    // "Business days" is no cabin.
    expect(ans('travel', 'change-flight-pay-difference', 'I can move R900301 to SK 203 on June 14; the new cabin stays economy and the refund posts in 5 business days. Shall I proceed?')).not.toBe('decline');
  });

  it('says no to a new booking, a new order and a passenger swapped in that it never asked for, and asks after its own change refused ("not able to") beside another', () => {
    const decline: [string, string, string][] = [
      ['travel', 'cancel-economy-to-travel-credit', "Here's a summary of the booking before I proceed:\n\nFlight: SK 170, one-way, May 24\nCabin: economy\nTotal: $368, charged to your Visa\n\nWould you like me to go ahead and book this reservation?"],
      ['travel', 'bags-economy-extra-fee', "The number of passengers can't be changed. If Juan Martinez is no longer flying, I could replace Juan with Lucia on reservation R900401. Would you like me to go ahead and replace Juan with Lucia?"],
    ];
    for (const [w, id, t] of decline) expect(ans(w, id, t), t).toBe('decline');
    // A plan of its own cancellation and an order placed anew: more than it asked for.
    expect(ans('retail', 'cancel-pending-mistake', 'One way to do it:\n\n1. Cancel order #W9000201, refunded to your card.\n2. Place a new order for the same items, shipped to your new address.\n\nWould you like me to go ahead with both steps?')).not.toBe('accept');
    // Its own change refused ("I'm not able to offer …"), and another change offered: no yes.
    expect(ans('travel', 'compensation-gold-delay', "I'm not able to offer a certificate or other compensation for this delay. What I can do is add a formal note to your reservation R900202. Would you like me to add this note?")).not.toBe('accept');
    // Its own change told plainly still gets a yes.
    expect(ans('travel', 'cancel-economy-to-travel-credit', 'I can cancel reservation R900202 now; the refund goes to your travel credit. Shall I proceed with the cancellation?')).toBe('accept');
    // A booking's change, and a new booking ruled out, are no new booking.
    expect(ans('travel', 'change-flight-pay-difference', 'I can move you to SK 203 on reservation R900301. Shall I proceed with the booking change?')).toBe('accept');
    expect(ans('travel', 'change-flight-pay-difference', 'I can move you to SK 203 on your current booking; there is no need for a separate booking. Shall I proceed?')).toBe('accept');
    expect(ans('travel', 'change-flight-pay-difference', 'Shall I make the booking change for you?')).not.toBe('decline');
    expect(ans('travel', 'change-flight-pay-difference', 'I can book you on SK 203 on June 14 in reservation R900301. Shall I proceed?')).toBe('accept');
  });

  it('reads what a change rules out as no proposal of it, and a payment adjusted as a change it may not want', () => {
    // "no further changes or cancellations can be made afterward" proposes no cancellation: the item change is another change.
    expect(ans('retail', 'cancel-pending-mistake', 'To confirm, you want to update your pending order #W9000201 to the 2-piece red luggage set. This will finalize your item change, and no further changes or cancellations can be made afterward. Would you like to proceed with this change?')).not.toBe('accept');
    expect(ans('travel', 'cancel-economy-to-travel-credit', 'The required amount is $348, not $320. Would you like to adjust your payment to cover this updated total using your certificate? Please confirm so I can proceed.')).not.toBe('accept');
    // Its own cancellation, with the rule told beside it, still gets a yes.
    expect(ans('retail', 'cancel-pending-mistake', 'I can cancel order #W9000201 now; no further changes can be made afterward. Would you like me to proceed with the cancellation?')).toBe('accept');
  });

  it('reads a cancellation told by its effect, a meal request and a certificate issued in a plan\'s table as the changes they are', () => {
    // "Refund the full amount and close out the order": a cancellation, which a user who wants an exchange did not ask for.
    const closeOut = 'Order #W9000201 is still pending. I can refund the full $89.40 to your PayPal account and close out the order so none of the items ship. Would you like me to go ahead?';
    expect(ans('retail', 'exchange-tee-color', closeOut)).toBe('decline');
    expect(ans('retail', 'cancel-pending-mistake', closeOut)).toBe('accept');
    // A special meal is another request of the trip; "no flight changes" names no flight change.
    expect(ans('travel', 'change-flight-pay-difference', 'I can add a vegetarian meal request for both passengers on R900301. Nothing else would change, no flight or cabin changes. Would you like me to add it?')).toBe('decline');
    // A certificate issued as a row of the plan is part of what a yes would do.
    expect(ans('travel', 'change-flight-pay-difference', "Here's what I'd do for R900301:\n\n| Action | Details |\n|---|---|\n| Flight change | SK 241 to SK 255, same cabin, $0 difference |\n| Certificate | $50 travel certificate for the delay, issued to your account |\n\nShall I go ahead?")).not.toBe('accept');
  });

  it('after review: an offer beside its own change is no yes, its own change beside a word of another is no no, and what a finished request tells the user asks nothing', () => {
    const R = 'cancel-pending-mistake';
    const T = 'cancel-economy-to-travel-credit';
    const notAccept: [string, string, string][] = [
      ['travel', T, 'Cancelling now would forfeit the fare, but if we first add travel insurance for $30, the cancellation would be fully refundable. Does that sound good?'],
      ['travel', T, "Since your basic economy ticket isn't refundable, adding our travel insurance today would let you cancel R900202 for a full refund. Is that okay with you?"],
      ['retail', R, 'Instead of cancelling order #W9000201, you could keep it and get a 15% discount on your next order. Does that sound good?'],
      ['retail', R, 'How about keeping order #W9000201 with a 15% discount instead of cancelling it? (yes/no)'],
      ['travel', T, 'The cancellation isn\'t refundable on your own, but with insurance added it would be. Do you approve adding insurance for $30?'],
    ];
    const notDecline: [string, string, string][] = [
      ['retail', 'exchange-tee-color', 'Shall I switch it to blue and send it to your address on file?'],
      ['retail', 'address-change-pending', 'To update the address on #W9000301, I\'ll need to stop the order before it ships and update it to 17 Pine Lane, Austin, TX 78701. Shall I go ahead?'],
      ['travel', 'change-flight-pay-difference', "I'll update R900301 to SK 203 for both passengers; a specialist will reissue your tickets automatically. Shall I proceed?"],
      ['travel', 'change-flight-pay-difference', 'I can book a new return flight for you on SK 203 within reservation R900301. Shall I go ahead?'],
      ['travel', 'change-flight-pay-difference', 'I can switch R900301 to SK 203 in economy, which would include 2 checked bags at no cost. Shall I go ahead?'],
    ];
    const closes: [string, string][] = [
      ['retail', '### What you need to know\n\n- Your refund goes to your card.\n- The prepaid label arrives by email.'],
      ['retail', 'Your return is filed. Double-check your inbox for the prepaid label.'],
      ['retail', 'Your return is filed. Then send the package back using the prepaid label within 14 days.'],
      ['retail', 'Your refund is on its way. Just give it 5-7 business days to appear.'],
      ['retail', 'Your return is filed. Please verify the refund on your statement in a few days.'],
      ['retail', 'Your choice of the red T-shirt has been saved.'],
      ['travel', 'Your flight is changed. If you change your mind, just say the word.'],
    ];
    for (const [w, id, t] of notAccept) expect(ans(w, id, t), t).not.toBe('accept');
    for (const [w, id, t] of notDecline) expect(ans(w, id, t), t).not.toBe('decline');
    for (const [w, t] of closes) expect(readAgentMessage(t, getWorld(w).userLanguage).asks, t).toEqual([]);
  });

  it('takes its own change spoken of only as the ground of another (refused, its wish reported, what the other stands in for) as no yes; its own change said so still gets one', () => {
    const answer = (world: string, id: string, text: string) => {
      const w = getWorld(world);
      const user = new ScriptedUser(loadScenarios(w).find((s) => s.id === id) as never, w.userLanguage, makeRng('g'));
      user.opening();
      const r = user.respond(text);
      return r.kind === 'message' ? r.act : undefined;
    };
    for (const [world, id, text] of [
      ['retail', 'cancel-pending-mistake', "I see you'd like to cancel order #W9000201. It is still pending, so I could switch its payment method to your PayPal account and it would ship as planned. Would you like me to go ahead?"],
      ['retail', 'cancel-pending-mistake', "You're thinking of cancelling order #W9000201 because of the price. One alternative: the cheaper model, $40 less. Would you like me to go ahead?"],
      ['retail', 'cancel-pending-mistake', 'Order #W9000201 cannot be cancelled online today. I can redirect the parcel to 12 Elm St, Austin TX 78701 though. Shall I proceed?'],
      ['travel', 'cancel-economy-to-travel-credit', 'Cancelling R900202 is not possible under its fare rules.\nThere is SK203 on the same day, and you would be flying in the evening instead of the morning.\nDo this? (yes/no)'],
      ['retail', 'cancel-pending-mistake', 'Order #W9000201 qualifies. We take back the lamp and $40 goes to your card. Confirm?'],
      ['travel', 'change-flight-pay-difference', 'Reservation R900301 is refundable in full. Please confirm that you want to call off this trip.'],
    ] as const) expect(answer(world, id, text), text).not.toBe('accept');
    for (const [world, id, text] of [
      ['retail', 'cancel-pending-mistake', "I see you'd like to cancel order #W9000201. It is still pending, so it can be cancelled for a full refund. Would you like me to go ahead?"],
      ['retail', 'cancel-pending-mistake', "I understand you want to cancel order #W9000201. Shall I go ahead?"],
      ['retail', 'cancel-pending-mistake', 'Order #W9000201 is pending; scrapping it refunds $54.20 to your card. Scrap it?'],
      // Its wish reported, then proposed by its effect or with a verb that points back ("add them"): still its own.
      ['travel', 'bags-economy-extra-fee', 'As a regular member you have no free bags. Bringing the two extra suitcases you mentioned would come to $100 on your card. Shall I add them to reservation R900401?'],
      ['retail', 'address-change-pending', "I understand you'd like the order sent elsewhere.\n**Current shipping address:** 1 Main St, Austin, TX 78701\n**New shipping address:** 12 Elm St, Austin, TX 78702\n\nPlease confirm (yes/no) that you'd like me to update the shipping address for order #W9000301."],
      // A rule in general beside its own change is no refusal of it.
      ['retail', 'address-change-pending', 'Keep in mind:\n- Once the order ships, the carrier cannot reroute it.\n\nI can have order #W9000301 delivered to 12 Elm St, Austin, TX 78702 instead. Should I make the change?'],
    ] as const) expect(answer(world, id, text), text).toBe('accept');
  });

  it('takes a change told by what going ahead would bring, or a plan with a step it never asked for, as no plain yes; its own change and a plan of its change alone still get one', () => {
    // A user who wants its order's address changed, or a cancellation, hears other changes told by their effect.
    const notAccept: [string, string, string][] = [
      ['retail', 'address-change-pending', 'Once I go ahead, order #W9000301 will no longer ship and the $64.10 goes back to your card. OK to go ahead?'],
      ['retail', 'cancel-pending-mistake', 'If we do this, order #W9000201 will be paid with your gift card instead of your Visa. Shall I proceed?'],
      ['travel', 'cancel-economy-to-travel-credit', 'If I go ahead, Ana Silva will travel in place of Tom Silva on R900202. Shall I go ahead?'],
      ['retail', 'cancel-pending-mistake', "Here's what will happen if you confirm: you'll send back the lamp and get $40 back. Proceed?"],
      ['retail', 'cancel-pending-mistake', "I'll file it so that the boots from #W9000201 go back to us and you get $91 back once we receive them. Ready for me to submit that?"],
      ['retail', 'address-change-pending', "Here's the plan:\n1. Update the shipping address on #W9000301 to 17 Pine Lane\n2. Switch the payment method to your PayPal account\nShall I do both? (yes/no)"],
      ['travel', 'cancel-economy-to-travel-credit', "Plan:\n1. Cancel reservation R900202\n2. Book SK 203 on May 24 for the same passenger\nConfirm (yes) and I'll do both."],
      ['travel', 'cancel-economy-to-travel-credit', 'Passenger 2 on R900202: birth date 1990-04-05 → 1990-05-04. OK to update?'],
      ['retail', 'cancel-pending-mistake', 'Order #W9000201: jacket size medium → large, same price. OK?'],
      ['travel', 'change-flight-pay-difference', 'Once I confirm this, both flights on R900301 will be released and the fare goes back to your card. Go ahead?'],
      ['travel', 'cancel-economy-to-travel-credit', "After this, you'll be on SK 203 on May 24 instead of SK 150. Shall I make it so?"],
      // The way out beside a go-ahead names no cancellation: what is left is a change of another kind.
      ['retail', 'cancel-pending-mistake', 'I can switch the payment on order #W9000201 to your Visa ending 8902. Reply "yes" to proceed or "no" to cancel the change.'],
      // Its own change and "the other requests", which it cannot see.
      ['retail', 'cancel-pending-mistake', 'Let me know if you want to proceed with the cancellation of order #W9000201 and the other requests.'],
      // A purchase: an order placed is a new one.
      ['retail', 'cancel-pending-mistake', 'The red fleece jacket is $153.18. To place the order, I will use your PayPal account. Please confirm if you would like to proceed with this order.'],
      ['retail', 'address-change-pending', 'Would you like to proceed with updating the address on order #W9000301 to 17 Pine Lane and order the red t-shirt? If so, please confirm.'],
      ['retail', 'exchange-tee-color', 'I can exchange the tee in order #W9000501 for the blue one. You also asked to cancel order #W9000201. Shall I go ahead?'],
      // The way out in typographic quotes, and a flight chosen, to users who want a cancellation.
      ['retail', 'cancel-pending-mistake', 'I can switch the payment on order #W9000201 to your Visa ending 8902.\n\nReply \u201cyes\u201d to proceed or \u201cno\u201d to cancel.'],
      ['travel', 'cancel-economy-to-travel-credit', 'Here are the nonstop options after 8 AM:\n1. SK 072, 09:00, $130\n\nWould you like to proceed with this flight option?'],
      // A summary that adds another change in a sentence of its own.
      ['retail', 'exchange-tee-color', 'To confirm your exchange request:\n1. In order #W9000501, you want to exchange the tee for the blue one.\n\nAdditionally, you want to cancel order #W9000201.\n\nPlease confirm if you want me to proceed.'],
    ];
    const accept: [string, string, string][] = [
      ['retail', 'cancel-pending-mistake', 'I can cancel order #W9000201 now; the $64.10 goes back to your card. Shall I proceed?'],
      ['retail', 'address-change-pending', "Here's what I'll do:\n- Order: #W9000301\n- New address: 17 Pine Lane, Austin, TX 78701\n- Update fee: none\nShall I update the address? (yes/no)"],
      ['retail', 'address-change-pending', 'To go ahead:\n1. Update the shipping address on #W9000301 to 17 Pine Lane\n2. Exchanges for this order stay possible after delivery\nShall I proceed? (yes/no)'],
      // A route's arrow is no change told by its effect.
      ['travel', 'cancel-economy-to-travel-credit', 'I can cancel R900202 (SK 150, JFK→SEA, May 22) and refund $289 to your card. Shall I proceed?'],
      // A way out of its own change leaves the change named.
      ['retail', 'cancel-pending-mistake', 'Order #W9000201 will be cancelled and $64.10 refunded to your card. Reply "yes" to proceed or "no" to cancel this request.'],
    ];
    for (const [w, id, t] of notAccept) expect(ans(w, id, t), t).not.toBe('accept');
    // A go-ahead of a hand-off told around it is no yes to a user who wants a cancellation.
    expect(ans('travel', 'cancel-economy-to-travel-credit', "I can't refund R900202 under the fare rules. Speaking with a human agent is the best next step. Would you allow me to transfer you?")).not.toBe('accept');
    // The offer just made, taken up: a go-ahead the user can answer.
    const kinds = (t: string) => readAgentMessage(t, getWorld('retail').userLanguage).asks.map((a) => a.kind);
    // A go-ahead with a closing offer after it, and an ask for identity beside "any other details".
    expect(kinds("The lamp costs $153. Let me know if you'd like to proceed with changing the payment method or need assistance with anything else!")).toContain('confirm');
    expect(kinds('I can only help once you are verified. If you remember any other details, such as your email address, please share that with me.')).toContain('identity');
    expect(kinds('Your order is on its way. Let me know if you need any other information.')).toEqual([]);
    for (const t of ['I can move the refund to your gift card instead. Would you like to do that?', 'I can issue a $50 certificate for the delay. Want that?', 'I can hand you to a colleague for a review. Want the transfer?', 'The lamp stays with you. Ready for me to submit that?', 'Move #W9000201 to express shipping? Yes/no?']) {
      expect(readAgentMessage(t, getWorld('retail').userLanguage).asks.map((a) => a.kind), t).toContain('confirm');
    }
  });
});

