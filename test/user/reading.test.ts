import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getWorld } from '../../scenarios/index.js';
import { readAgentMessage } from '../../src/user/reading.js';

interface Case {
  readonly world: string;
  readonly style: string;
  readonly text: string;
  readonly split: 'tune' | 'held-out';
  readonly expect: { identity?: boolean; slots?: string[]; confirm?: boolean; help?: boolean; choose?: boolean; unplaced?: boolean; progress?: boolean; closes?: boolean };
}

const corpus: Case[] = readFileSync(new URL('./corpus.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Case);

/** What the scripted user would do with a message, in the corpus's terms. */
function reading(world: string, text: string) {
  const r = readAgentMessage(text, getWorld(world).userLanguage);
  const slots = [...new Set(r.asks.flatMap((a) => (a.kind === 'slot' ? [a.slot] : [])))].sort();
  return {
    identity: r.asks.some((a) => a.kind === 'identity'),
    slots,
    confirm: r.asks.some((a) => a.kind === 'confirm'),
    help: r.asks.some((a) => a.kind === 'help'),
    choose: r.asks.some((a) => a.kind === 'choose'),
    unplaced: r.asks.some((a) => a.kind === 'unplaced'),
    progress: r.progress,
    closes: r.asks.length === 0 && !r.progress,
  };
}

const expected = (c: Case) => ({
  identity: c.expect.identity ?? false,
  slots: [...(c.expect.slots ?? [])].sort(),
  confirm: c.expect.confirm ?? false,
  help: c.expect.help ?? false,
  choose: c.expect.choose ?? false,
  unplaced: c.expect.unplaced ?? false,
  progress: c.expect.progress ?? false,
  closes: c.expect.closes ?? false,
});

describe('the simulated user reads agents it has never seen (test/user/corpus.jsonl)', () => {
  it('holds at least 300 labelled messages in four styles, both worlds', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(300);
    expect(new Set(corpus.map((c) => c.style))).toEqual(new Set(['terse', 'markdown', 'chatty', 'llm']));
    expect(corpus.filter((c) => c.style === 'llm').length).toBeGreaterThanOrEqual(100);
    expect(new Set(corpus.map((c) => c.world))).toEqual(new Set(['retail', 'travel']));
  });

  it('reads at least 98% of them as labelled, per split; a miss prints the message and what was expected', () => {
    const misses: string[] = [];
    const bySplit: Record<string, { n: number; ok: number }> = {};
    const byStyle: Record<string, { n: number; ok: number }> = {};
    for (const c of corpus) {
      const got = reading(c.world, c.text);
      const ok = JSON.stringify(got) === JSON.stringify(expected(c));
      for (const [table, key] of [[bySplit, c.split], [byStyle, c.style]] as const) {
        const row = (table[key] ??= { n: 0, ok: 0 });
        row.n++;
        if (ok) row.ok++;
      }
      if (!ok) misses.push(`${c.split} ${c.world}/${c.style}: ${JSON.stringify(c.text)}\n  expected ${JSON.stringify(expected(c))}\n  got      ${JSON.stringify(got)}`);
    }
    const rate = (r: { n: number; ok: number }) => r.ok / r.n;
    console.log(`conformance: ${Object.entries({ ...bySplit, ...byStyle }).map(([k, r]) => `${k} ${(100 * rate(r)).toFixed(1)}% of ${r.n}`).join(', ')}`);
    const all = corpus.length - misses.length;
    expect(all / corpus.length, misses.join('\n')).toBeGreaterThanOrEqual(0.98);
    for (const r of Object.values(bySplit)) expect(rate(r), misses.join('\n')).toBeGreaterThanOrEqual(0.98);
  });

  it('never closes a request on a message that asks for something', () => {
    const closedWhileAsked = corpus.filter((c) => !c.expect.closes && !c.expect.progress && reading(c.world, c.text).closes);
    expect(closedWhileAsked.map((c) => c.text)).toEqual([]);
  });

  it('reads the cases that used to end conversations', () => {
    const travel = (t: string) => reading('travel', t);
    expect(travel("To proceed with canceling your reservation, I'll need your email address, the reservation ID, and the reason for cancellation. Once you provide these details, I can assist you further.")).toMatchObject({ identity: true, slots: ['reason', 'reservation'], closes: false });
    expect(travel('To help you, I need:\n1. Your email address\n2. Your reservation ID\n\nCould you please provide those details?')).toMatchObject({ identity: true, slots: ['reservation'] });
    expect(travel('Please let me know which flight you would like.')).toMatchObject({ slots: ['newFlight'] });
    expect(travel('Let me check that for you.')).toMatchObject({ progress: true, closes: false });
    expect(reading('retail', "I'm sorry, our systems are not responding right now, so I can't complete this. Please try again later.")).toMatchObject({ closes: true });
    expect(reading('retail', 'Please contact us again with your order number and what you need.')).toMatchObject({ closes: true });
  });

  it('reads a terse list of what the agent needs as an ask, where it names what the world asks for', () => {
    const retail = (t: string) => reading('retail', t);
    const travel = (t: string) => reading('travel', t);
    expect(retail('Email, or full name + ZIP, please.')).toMatchObject({ identity: true, closes: false });
    expect(retail('To start: email on the account (or name + zip).')).toMatchObject({ identity: true, closes: false });
    expect(retail('**Still needed from you:** the new address, with street, city and state.')).toMatchObject({ slots: ['address'], closes: false });
    expect(travel("Sure. Drop your user ID and the reservation number (6 characters, like R417655) and I'll take a look.")).toMatchObject({ identity: true, slots: ['reservation'], closes: false });
    expect(retail('First things first: your email address.')).toMatchObject({ identity: true, closes: false });
    expect(retail('Email + order #, pls.')).toMatchObject({ identity: true, closes: false });
    expect(travel('Which flight would you prefer, SK203 or SK205, or were you looking for something else?')).toMatchObject({ closes: false });
    // Not a pleasantry, an instruction or a statement with "please" at its end or after a lead-in, nor a need told met.
    for (const text of [
      'Order #W9000201 is cancelled. Nothing more is needed from you.',
      'Have a great day, please.',
      'Your order #W9000201 has been cancelled, so please allow 5-7 days for the refund.',
      'Check your email for the return label, please.',
      'Your address is updated. Keep your order number handy for tracking, please.',
      'Step one: print the label from your email.',
      'To start: your return for the wall clock is approved, and the label is in your email.',
      "I have your email and order number; that's all that's needed from you.",
      'Next step: the label will be sent to your email address.',
      'Drop the return code sheet in the box with the clock.',
    ]) expect(retail(text), text).toMatchObject({ closes: true });
  });

  it('reads an ask to send a detail again, and an ask put as a condition, as asks for what the message named', () => {
    const retail = (t: string) => reading('retail', t);
    // "Could you double-check it and send it again?" after the detail that was not found.
    expect(retail("I wasn't able to find a profile with the user ID \"sofia_nguyen_29\". Could you double-check it and send it again?")).toMatchObject({ identity: true, closes: false });
    expect(retail("I'm sorry, but I couldn't find the email mia.li@example.com. Could you please check it and provide it again?")).toMatchObject({ identity: true, closes: false });
    // What follows the condition's comma is the agent's own step, not what it asks.
    expect(retail('I can only help once I have authenticated you with your email address or your name and zip code. If you can provide either of those, I can help you find your order ID.')).toMatchObject({ identity: true, slots: [], closes: false });
    expect(retail('If you can share the order number, I can look up its status.')).toMatchObject({ slots: ['order'], closes: false });
    expect(retail('Your order #W9000201 is cancelled. If anything looks off, check it again later.')).toMatchObject({ closes: true });
  });

  it('reads an ask with a closing offer tacked on as the ask', () => {
    const retail = (t: string) => reading('retail', t);
    expect(retail('Which order should I look at, or is there something else you need?')).toMatchObject({ slots: ['order'], closes: false });
    expect(retail('Please tell me which items you want to send back, or let me know if there is anything more I can do.')).toMatchObject({ slots: ['items'], closes: false });
    expect(retail('What is the reason for the cancellation — or anything else on your mind?')).toMatchObject({ slots: ['reason'], closes: false });
    // A go-ahead with a closing offer of doing something else, or of looking for something else, still asks for the go-ahead.
    expect(retail('Would you like me to proceed with the exchange, or would you like to do something else?')).toMatchObject({ confirm: true, closes: false });
    expect(retail('Shall I go ahead with the return, or perhaps something else?')).toMatchObject({ confirm: true, closes: false });
    expect(retail('Which size would you like instead, or are you looking for something else?')).toMatchObject({ slots: ['target'], closes: false });
    // A closing offer alone still asks nothing about the request.
    expect(retail('Your order #W9000201 has been cancelled. Is there anything else I can help you with?')).toMatchObject({ closes: true });
    expect(retail('Your order #W9000201 has been cancelled. Would you like to do something else?')).toMatchObject({ closes: true });
  });

  it('reads bold labels in a list under an asking lead-in as asks, and values in such a list as values', () => {
    const retail = (t: string) => reading('retail', t);
    expect(retail('To look this up, I will need the following:\n1. **Full name**: as it appears on your account\n2. **ZIP code**: for verification')).toMatchObject({ identity: true, closes: false });
    expect(retail('Sure, I can help. Please send me:\n- **Order number**: it starts with #W\n- **Reason**: why you want to cancel')).toMatchObject({ slots: ['order', 'reason'] });
    expect(retail('Here is what I found:\n- **Order**: #W9000201\n- **Status**: pending\n\nIs there anything else I can help you with?')).toMatchObject({ closes: true });
    // A heading that says what is needed ("Required information:", "Details needed:") asks through its items.
    expect(retail('Happy to help with that.\n\nRequired information:\n- Your e-mail address.\n- The order number.')).toMatchObject({ identity: true, slots: ['order'], closes: false });
    expect(retail('All set! Here is what was updated, no action needed from you:\n- Order #W9000201 now ships to 12 Elm Road.\n- The payment method is unchanged.\n\nIs there anything else I can help you with?')).toMatchObject({ closes: true });
    // An item that explains, then asks in a sentence of its own; not one that asks to be told later.
    expect(retail('A few notes:\n- **Returns**: items come back within 30 days. Please confirm the reason for the return so I can file it.')).toMatchObject({ closes: false });
    expect(retail('Here is the summary:\n- **Refund**: $50 to your original card. Please allow 5-7 business days and let me know if it does not arrive.')).toMatchObject({ closes: true });
  });

  it('reads a pick among alternatives that are not records as a choice, and a what-question as no go-ahead', () => {
    const retail = (t: string) => reading('retail', t);
    expect(retail('I see two gift cards on your profile: gift_card_111 and gift_card_222. Which gift card would you like to use?')).toMatchObject({ choose: true, confirm: false, unplaced: false });
    expect(retail('Order #W9000201 is pending, so it cannot be returned. Would you like to cancel it or modify the items instead?')).toMatchObject({ choose: true, closes: false });
    expect(retail('Would either of those work for you?')).toMatchObject({ choose: true });
    // "Would you like to use the card, or the certificate?" picks; it gives no go-ahead.
    expect(retail('Would you like to use your credit card for the full amount, or your gift card?')).toMatchObject({ choose: true, confirm: false });
    expect(retail('What changes would you like to make to this order?')).toMatchObject({ confirm: false, closes: false });
    expect(retail('Please confirm if you would like to proceed with returning just the lamp, or if you would like to include the kettle as well.')).toMatchObject({ choose: true, confirm: true });
    expect(retail("To proceed, please confirm 'yes' and select a payment method from your profile (credit_card_1 or gift_card_2).")).toMatchObject({ choose: true, confirm: true });
    expect(retail('Option 1 is the fastest. Would you like to proceed with this option?')).toMatchObject({ choose: true, confirm: true });
    // An ask inside a value of a summary, and "what would you like to do?" after a list of options.
    expect(retail('To confirm your order:\n- Items: desk lamp\n- Payment method: one gift card (please choose: gift_card_1 or gift_card_2)')).toMatchObject({ choose: true, closes: false });
    expect(retail('Options you have:\n- Cancel the order\n- Change the address\n\nWhat would you like to do next?')).toMatchObject({ choose: true, help: false });
    expect(retail('What would you like to do next?')).toMatchObject({ choose: false, help: true });
    expect(retail('There is no cheaper size in stock. Would you still like to return the lamp, or would you rather keep it?')).toMatchObject({ choose: true, unplaced: false });
    // A relative "which" picks nothing.
    expect(retail('Your order, which was delivered yesterday, is eligible for a return.')).toMatchObject({ choose: false, closes: true });
  });

  it('reads a go-ahead in any words, and keeps it beside a detail asked with it', () => {
    const retail = (t: string) => reading('retail', t);
    expect(retail('To confirm, you want to cancel order #W9000201 because you ordered it by mistake. Is that correct?')).toMatchObject({ confirm: true });
    expect(retail('The change is ready. Reply **YES** to proceed!')).toMatchObject({ confirm: true });
    expect(retail('The system returned an error. Would you like to try again?')).toMatchObject({ confirm: true });
    expect(retail('To finish: confirm "yes" with the two cards adding up to exactly $264.')).toMatchObject({ confirm: true, closes: false });
    // A go-ahead for the agent's own step names a detail it tells, not one it asks for.
    expect(retail('I can issue the refund now. Would you like me to send it to your user ID "emma_novak_1"?')).toMatchObject({ confirm: true, identity: false });
    // Word order makes a question, whatever ends it.
    expect(retail('To confirm, would you like to cancel order #W9000201:\n- Desk Lamp\n- Kettle')).toMatchObject({ confirm: true, closes: false });
    expect(retail('Could you give me your e-mail address? Then shall I go ahead with the cancellation?')).toMatchObject({ identity: true, confirm: true });
  });

  it('reads the reply, not the reasoning a model leaked before it', () => {
    const retail = (t: string) => reading('retail', t);
    expect(retail('<think>\nThe user wants to cancel. Should I ask for the order? Which order is it?\n</think>\n\nTake your time; once you find the order number, just share it with me.')).toMatchObject({ slots: ['order'], choose: false, closes: false });
    expect(retail('<think>Maybe I should ask what they need?</think>All done: order #W9000201 is cancelled.')).toMatchObject({ closes: true });
  });

  it('takes a pointer to a confirmation e-mail for no ask of its identity', () => {
    const retail = (t: string) => reading('retail', t);
    expect(retail('The details will be in your confirmation e-mail. Is there anything else I can help you with?')).toMatchObject({ identity: false, closes: true });
    expect(retail('Could you look in your order confirmation email and tell me the order number?')).toMatchObject({ identity: false, slots: ['order'] });
    expect(retail('Could you tell me the e-mail address on your account?')).toMatchObject({ identity: true });
  });

  it('reads an ask put as a condition, a need or after a lead-in as an ask; advice for later as none', () => {
    const retail = (t: string) => reading('retail', t);
    expect(retail('If you can provide your e-mail address, I can look the order up right away.')).toMatchObject({ closes: false, identity: true });
    expect(retail('To cancel it, you will need to provide the order number and the reason.')).toMatchObject({ closes: false });
    expect(retail("When you're ready, share the right order number and I'll pick up from there.")).toMatchObject({ closes: false });
    expect(retail('If you remember a different zip code or any other identifying information, please let me know, and I will try again.')).toMatchObject({ closes: false });
    expect(retail("Once it has been delivered, you'll need to provide the order number to start an exchange. Have a good day!")).toMatchObject({ closes: true });
    expect(retail('Let me know which you prefer, or if you need any other help.')).toMatchObject({ closes: false });
    expect(retail('Is there anything else or any other order I can help with?')).toMatchObject({ closes: true });
    // Advice for later or for someone else, and a closing offer that names a detail, ask nothing now.
    const travel = (t: string) => reading('travel', t);
    expect(travel('Your flight is changed. You will need to provide your passport at check-in for this trip.')).toMatchObject({ closes: true });
    expect(retail('Your return is accepted. If you can send the box back within 14 days, the refund reaches your card in a week.')).toMatchObject({ closes: true });
    expect(travel('All set. At the kiosk, enter your reservation code to print the boarding pass.')).toMatchObject({ closes: true });
    expect(retail('Your address is updated. If you ever need to change the phone number or any other address details, just let me know!')).toMatchObject({ closes: true });
    expect(retail('Let me know which of the two orders you mean, or if you need any more information about them.')).toMatchObject({ closes: false });
  });

  it('keeps a go-ahead with an offer to change the plan after it, and a detail asked beside a go-ahead in one sentence', () => {
    const retail = (t: string) => reading('retail', t);
    const travel = (t: string) => reading('travel', t);
    expect(retail('Shall I go ahead with the return of both lamps, or let me know if you have any corrections.')).toMatchObject({ closes: false, confirm: true });
    expect(travel('Reply "yes" to proceed with the upgrade, or let me know if you need any adjustments.')).toMatchObject({ closes: false, confirm: true });
    // A closing offer alone still closes.
    expect(retail('Your order is cancelled. Let me know if you have any questions.')).toMatchObject({ closes: true });
    // "Confirm, and tell me how to pay": both asked.
    expect(travel('Please confirm with "yes" to upgrade R900202 to business, and specify the gift card ID you want to pay with.')).toMatchObject({ confirm: true, slots: ['payment'] });
    expect(retail('Please reply yes to go ahead with the exchange, and provide the payment method ID for the price difference.')).toMatchObject({ confirm: true, slots: ['refund'] });
    // A go-ahead alone asks for no detail.
    expect(travel('Please confirm with "yes" to upgrade R900202 to business.')).toMatchObject({ confirm: true, slots: [] });
    // Only what is asked after "and": a reason stated before it, or the agent's own doing after it, is no ask.
    expect(retail('Shall I cancel #W9000201 with the reason "no longer needed", and provide the refund to your original card?')).toMatchObject({ confirm: true, slots: [] });
    expect(retail('Should I go ahead with the exchange for the reason you gave, and specify the payment method ID for the difference?')).toMatchObject({ confirm: true, slots: ['refund'] });
  });

  it('reads an ask of who the user is put as a way in, a condition or a closing offer as that ask', () => {
    const retail = (t: string) => reading('retail', t);
    // A lead-in that asks by "providing": its items ask.
    expect(retail('Please authenticate by providing one of:\n- The email on the account\n- Or your full name and ZIP code')).toMatchObject({ closes: false, identity: true });
    // What reads as a closing offer but names who the user is.
    expect(retail('I could not find the account. If you recall any other details, such as another email address or any other information about your account, please send it over.')).toMatchObject({ closes: false, identity: true });
    expect(retail('If you have any other possible email addresses or zip codes you may have used, please let me know.')).toMatchObject({ closes: false, identity: true });
    // Closing offers still close.
    expect(retail('Your order is on its way. If you have any other questions, please let me know.')).toMatchObject({ closes: true });
    expect(retail('Done! Is there anything else, or any other information you need?')).toMatchObject({ closes: true });
  });

  it('reads a message written as JSON by its strings, a heading as a lead-in, and asks put as fragments or idioms', () => {
    const retail = (t: string) => reading('retail', t);
    const travel = (t: string) => reading('travel', t);
    // JSON: its strings, whatever the keys; the closing brace after a question keeps it a question.
    expect(retail('{"message": "I can refund it to your PayPal or to a gift card. Which would you prefer?"}')).toMatchObject({ choose: true, closes: false });
    expect(retail('{"reply": "Thanks!", "next_steps": ["Could you tell me the order number?"]}')).toMatchObject({ slots: ['order'] });
    expect(retail('{"message": "Order #W9000201 is cancelled. Is there anything else I can help with?"}')).toMatchObject({ closes: true });
    // A heading introduces its list as a line ending in a colon does.
    expect(retail('### Before I can cancel\n\nOnly pending orders can be cancelled.\n\n### What I need from you\n\n- The e-mail on your account\n- The order number')).toMatchObject({ identity: true, slots: ['order'] });
    expect(retail('### Done\n\n- Order #W9000201 cancelled\n- Refund to your card in 5-7 days')).toMatchObject({ closes: true });
    // Fragments and imperatives.
    expect(travel('Happy to help with that. Your user ID, please.')).toMatchObject({ identity: true, closes: false });
    expect(travel('Please indicate which flight you would like, and the cabin.')).toMatchObject({ closes: false });
    expect(retail('Double-check the zip code on file, or share the e-mail address on the account, and I will try again.')).toMatchObject({ identity: true });
    // A closing offer after "and" leaves the ask.
    expect(retail('The blue one is $4 cheaper. Let me know which you would prefer, and feel free to ask if you have any other questions.')).toMatchObject({ closes: false });
    // Go-aheads in everyday words.
    for (const text of [
      'Order #W9000201 has not shipped yet. Want me to cancel it?',
      'The refund of $54.20 goes back to your card. Would that work for you?',
      'Adding two bags comes to $100. Do I have your permission to add them?',
      'Same cabin, no fare difference. Okay to switch?',
      'The order is pending; cancelling refunds $30 to your card. Cancel it now? (yes/no)',
      'If that sounds right, just confirm and I will make the change.',
    ]) expect(reading(text.includes('bags') ? 'travel' : 'retail', text), text).toMatchObject({ confirm: true, closes: false });
    expect(retail("Provide the order number and I'll get back to you.")).toMatchObject({ slots: ['order'] });
    // Advice and a closing offer still ask nothing.
    expect(retail('Your refund is on its way; please allow 5-7 business days. Feel free to reach out if you have any other questions.')).toMatchObject({ closes: true });
    expect(travel('Your flight is changed. Please remember to bring a photo ID to the airport.')).toMatchObject({ closes: true });
  });
});

describe('an ask for who the user is, after a lookup that found nothing', () => {
  it('reads "anything that might help locate your account" and "you can share that" as asks for identity', () => {
    const retail = (t: string) => reading('retail', t);
    const travel = (t: string) => reading('travel', t);
    expect(retail("I still can't find an account under that e-mail. Could you check the spelling, or let me know if there's anything else that might help me locate your account?")).toMatchObject({ identity: true, closes: false });
    expect(travel('Nothing came up under that name. If you remember the e-mail address on your profile, you can share it here.')).toMatchObject({ identity: true, closes: false });
    expect(retail("If you have your e-mail address, that would be the quickest way. If not, I can use your name and zip code instead.")).toMatchObject({ identity: true, closes: false });
    // Asks put as options, as a first step, as what will do, or in slang.
    expect(travel('Before I change anything, I have to verify your identity. You can do that in one of two ways:\n\n**Option 1:** your e-mail address\n**Option 2:** your full name and date of birth\n\nEither works.')).toMatchObject({ identity: true, closes: false });
    expect(travel('Happy to change that flight. First step: your user ID.')).toMatchObject({ identity: true, closes: false });
    expect(retail('I could not find the order by its tracking number. Your e-mail address should do it.')).toMatchObject({ identity: true, closes: false });
    expect(retail('Sure thing. Shoot me with your email or name + zip and I will look.')).toMatchObject({ identity: true, closes: false });
    // A closing offer is still one, and what the user may do elsewhere still asks nothing.
    expect(retail("I've found your account and cancelled order #W9000201. Let me know if there's anything else I can help with.")).toMatchObject({ identity: false, closes: true });
  });

  it('reads the items under "would you like me to:" as a pick, and "reply yes" that refers back as a go-ahead as well', () => {
    const retail = (t: string) => reading('retail', t);
    const travel = (t: string) => reading('travel', t);
    // Alternatives offered as a list, each a question: a pick among them, not asks it cannot place.
    expect(travel('There is no nonstop on that day. Would you like me to:\n- Look for flights with one stop?\n- Check the days around it?\n- Try another cabin?')).toMatchObject({ choose: true, unplaced: false, closes: false });
    expect(retail('The new lamp costs less than the old one. You can either:\n1. Take the difference on another card.\n2. Confirm that you want to go ahead with the exchange on the gift card.')).toMatchObject({ choose: true, confirm: true });
    // An offer of a change for something else is a go-ahead, not a closing offer; go-aheads put as fragments.
    expect(travel("Done: R900202 is cancelled. Want me to book you something else while you're here?")).toMatchObject({ confirm: true, closes: false });
    expect(travel('Is there something else I can help you with?')).toMatchObject({ closes: true });
    expect(travel('Both flights on R900202 will be released and $310 returned to your card. OK to release it?')).toMatchObject({ confirm: true });
    expect(travel('Sorry about that. I can add a $100 travel credit to your account for the trouble \u2014 want it?')).toMatchObject({ confirm: true });
    // A list under a lead-in that offers nothing stays a list.
    expect(retail('Here is what I changed:\n- The lamp is now the white one.\n- The refund went to your card.\n\nAnything else I can do?')).toMatchObject({ choose: false, closes: true });
    // A go-ahead in so many words beside a reference to what came before: both asks.
    const sent = retail('Your e-mail on file is noah@example.com; the instructions will be sent there.\nPlease reply "yes" to submit the exchange given the details above.');
    expect(sent).toMatchObject({ confirm: true, closes: false });
  });

  it('reads asks put as what would help, what is missing, what comes next or a need, a checklist under a lead-in, an example value and options after a dash', () => {
    const retail = (t: string) => reading('retail', t);
    const travel = (t: string) => reading('travel', t);
    expect(retail("It would help to know which payment method you'd like the refund sent to.")).toMatchObject({ closes: false });
    expect(travel('Once I have the reservation number, I can check whether it qualifies for a refund.')).toMatchObject({ closes: false });
    expect(retail('Next step is the new shipping address: full street, city, state, ZIP.')).toMatchObject({ closes: false });
    expect(travel("The only thing missing before I can look up flights is the date you'd prefer.")).toMatchObject({ closes: false });
    expect(retail("Drop me the order number and I'll take it from there.")).toMatchObject({ slots: ['order'] });
    expect(retail('Need your zip code to finish verifying; your name matched two accounts.')).toMatchObject({ identity: true });
    // A checklist whose lines carry no bullet, under a lead-in that asks.
    expect(travel("Quick checklist so I can book this:\n\nWho's flying — names and birthdays\nWhich day you want to leave\n\nThat's it.")).toMatchObject({ closes: false });
    // An example given for the value is no value.
    expect(retail('To process the exchange, please provide the following:\n\n* Order ID: (e.g., #W1234567)\n* Item to exchange:')).toMatchObject({ slots: expect.arrayContaining(['order']) });
    // "Once I have those" refers back to what the lines before it named.
    expect(retail("Could you share the following?\n\nOrder number:\nEmail address on the account:\n\nOnce I have those, I'll check the tracking.")).toMatchObject({ identity: true });
    // Options after a dash, even with a closing offer after them, and "are you looking to ..., or ...?".
    expect(retail('Order #W9000201 is delivered. What would you like to do with it — return, exchange, or something else?')).toMatchObject({ choose: true });
    expect(travel('Are you looking to change the dates, or the destination itself?')).toMatchObject({ choose: true });
    expect(retail("Otherwise, want me to make the swap?")).toMatchObject({ confirm: true });
    expect(retail('Awaiting your confirmation.')).toMatchObject({ confirm: true, closes: false });
    // A statement after a lead-in that ends as a sentence is no list.
    expect(retail('Here is what happened:\nThe order shipped on May 3.\n\nAnything else I can do?')).toMatchObject({ closes: true });
  });

  it('reads go-aheads put as fragments, a quoted reply word, and "either one" after the ways it names', () => {
    const travel = (t: string) => reading('travel', t);
    for (const ask of ['Shall we finalize?', 'OK to do both?', 'All good to place it?', 'Is this acceptable?', 'Ready to submit?', 'Ready?', 'Is that what you want me to do?', 'Move you to SK 159 in business?', 'Get you on it?', 'Want those on reservation R900301?', 'Reply "confirm" and I\'ll process both.']) {
      expect(travel(`SK 159 on March 8 has seats in economy. ${ask}`), ask).toMatchObject({ confirm: true, closes: false });
    }
    // A question of what, and a statement, are still no go-ahead.
    expect(travel('Ready when you are. What date would you like to fly instead?')).toMatchObject({ confirm: false });
    // A terse question that ends a message which told a change first is its go-ahead; a terse question of a thing asked for,
    // a closing one, or one alone, is not.
    for (const ask of ['Scrap it?', 'Go?', 'Drop both?', 'Green-light it?', "Tack 'em on?"]) expect(travel(`SK 159 on March 8 has seats in economy, $120 on your card. ${ask}`), ask).toMatchObject({ confirm: true, closes: false });
    for (const ask of ['Anything else?', 'Your user ID?', 'Which one?', 'Questions?']) expect(travel(`SK 159 on March 8 has seats in economy. ${ask}`), ask).toMatchObject({ confirm: false });
    expect(travel('Go?')).toMatchObject({ confirm: false });
    // "Reply YES to confirm the payment method change": a go-ahead, however many words name the change.
    expect(reading('retail', 'Order #W9000201 is pending.\n- From: credit_card_1\n- To: credit_card_2\n\nReply **YES** to confirm the payment method change.')).toMatchObject({ confirm: true });
    // A pictograph after a question leaves it a question; a form to fill in, in a code block, with blanks or placeholders, asks its labels.
    expect(travel('Here are two options:\n1. SK 145 at 06:00\n2. SK 038 at 09:00\n\nWhich option would you prefer? \u2708\uFE0F')).toMatchObject({ closes: false });
    expect(travel('To look you up, please reply in this format:\n\n```\n{\n  "user_id": "",\n  "reservation_id": ""\n}\n```')).toMatchObject({ identity: true, closes: false });
    expect(travel('Let\'s get you verified. Just fill in either option below:\n\n**Option A:** Email: ______\n**Option B:** First name: ______ | Last name: ______ | Zip: ______')).toMatchObject({ identity: true, closes: false });
    expect(travel('{"message":"To proceed, reply with:\\nuser_id: <your user ID>\\nreservation_id: <6-character code>"}')).toMatchObject({ identity: true, closes: false });
    expect(travel('First I need to find your account:\n**Email:**\n— or —\n**Full name + ZIP:**\n\nDrop either one here.')).toMatchObject({ identity: true, closes: false });
  });

  it('reads a sentence across an ellipsis in brackets, an ask after "if you would like to ...,", lettered options, a preference to confirm and a list in JSON', () => {
    const retail = (t: string) => reading('retail', t);
    const travel = (t: string) => reading('travel', t);
    // "(with the #W... ID)" does not end the sentence: the ask for the order is one unit.
    expect(retail('Your orders are #W9000201 and #W9000202.\n\nWhich order (with the #W... ID) did you place for the watches? Also, please let me know what you would like to change.')).toMatchObject({ slots: expect.arrayContaining(['order']) });
    // An ask after a condition, "Also confirm ...", insurance asked as a detail (not an insurer).
    expect(travel("If you'd like to book this (or another), provide your user ID, the passengers, insurance (yes/no), and a payment method.")).toMatchObject({ identity: true, closes: false });
    expect(retail('The skateboard in order #W9000201 can be cancelled. Also confirm if you want to proceed with that cancellation.')).toMatchObject({ confirm: true });
    expect(travel('You will need to send the receipt to your insurance company.')).toMatchObject({ closes: true });
    // Options lettered A) to C) under "choose one:", and "reply with A, B, or C": a pick.
    expect(retail('Next steps for the boots, choose one:\nA) Keep the boots as they are.\nB) Exchange them for another variant.\nC) Talk to a human agent.\n\nPlease reply with A, B, or C.')).toMatchObject({ choose: true, unplaced: false });
    // "Confirm your preferred refund method and I'll proceed": the method is asked, before any go-ahead.
    expect(retail("The refund can go to PayPal or to your Visa ending in 3194. Please confirm your preferred refund method and I'll proceed with the return.")).toMatchObject({ slots: ['refund'] });
    // How to go on with verification asks who the user is.
    expect(retail("I couldn't find an account with that e-mail. Could you please confirm how you would like to proceed with verification?")).toMatchObject({ identity: true });
    // A JSON message's list under its key reads as a list under a heading: "required information:" asks for its items.
    const json = JSON.stringify({ response: 'To proceed, I need a few details.', required_information: ['Your user id', 'Your reservation id'] });
    expect(travel(json)).toMatchObject({ identity: true, closes: false });
  });
});

describe('a reading remembered', () => {
  it('reads a list item whose label is a request as an ask, and "which would you like to give me?" after the ways it names', () => {
    const retail = (t: string) => reading('retail', t);
    expect(retail("To move forward, I just need a few things:\n\n- Confirm the order ID: #W7449508 (the one with the sneakers).\n- Tell me where you'd like the refund sent: back to your original gift card or to another one.\n\nAs soon as you've confirmed, I'll process the return.")).toMatchObject({ closes: false });
    // A label that names a value under "here are the details:" still states it.
    expect(retail('Here are the details:\n\n- Order ID: #W7449508\n- Refund: original gift card\n\nThe return is on its way.')).toMatchObject({ closes: true });
    expect(retail("The quickest way for me to find your account is with your email address. If you don't have that handy, your name and zip code will work too. Which would you like to give me?")).toMatchObject({ identity: true, closes: false });
    // "Say so" asks; a colon in brackets is no label's, so the item under "please confirm whether I should:" asks.
    expect(retail('Order #W8367380 can be cancelled, with $1003.22 back on your Mastercard. Just say so if you\'d like me to go ahead!')).toMatchObject({ closes: false });
    expect(retail('**Please confirm whether I should:**\n1. Cancel order #W8367380 (Reason: ordered by mistake).\n2. Cancel order #W1242543 (Reason: no longer needed).')).toMatchObject({ closes: false });
  });

  it('reads a question followed by "or do you need assistance with something else?" as the question, and the closing offer alone as none', () => {
    const retail = (t: string) => reading('retail', t);
    for (const text of [
      'The order is still pending, so it cannot be returned yet. Would you like to cancel it instead, or do you need assistance with something else?',
      'Exchanges are only for delivered orders. Would you like to return the shoes instead, or do you want assistance with something else?',
      'That variant is not available. Would you like to look at other colors, or perhaps I can assist you with something else?',
      'It cannot be returned yet. Would you like to cancel just the hose, or do you want to handle something else?',
      'Would you like me to cancel order #W9000201, or do you need further assistance?',
      'Would you like the refund on your card, or would you like help with something else?',
      'Shall I cancel order #W9000201, or can I help you with anything else?',
    ]) expect(retail(text), text).toMatchObject({ closes: false });
    // What names the request after the "or" is no closing offer: another way to find the user is still asked for.
    for (const text of [
      "I couldn't find an account with that email. Could you double-check it, or would you prefer other verification such as your name and zip code?",
      'Could you share your email address, or do you have any other details like your name and zip code?',
    ]) expect(retail(text), text).toMatchObject({ identity: true, closes: false });
    // The offer alone, however it is put, still asks nothing.
    for (const text of [
      'Your order #W9000201 has been cancelled. Do you need assistance with something else?',
      'Your order #W9000201 has been cancelled. Perhaps I can assist you with something else?',
    ]) expect(retail(text), text).toMatchObject({ closes: true });
  });

  it('reads a question put to the user inside a list item as an ask, and the user\'s own questions that the message answers, as an FAQ puts them, as none', () => {
    const retail = (t: string) => reading('retail', t);
    for (const text of [
      'Done, order #W9000201 is cancelled.\n\nNext steps:\n- If you still want the refund moved to your gift card, I can escalate this. Would you like me to transfer you to a human agent? If so, I will include a summary.',
      '- Would you like me to send the label to your email as well? If yes, it goes out today.',
      '- Shall I also return the lamp? Then I will file both returns together.',
      // Whatever follows the question in its item, and wherever the question stands in it.
      'Your order #W9000201 now has the blue kettle.\n\n- **Gift wrap:** Do you want it gift-wrapped? It costs $4 and ships the same day.\n- **Delivery:** 3 to 5 days.',
      'Your return is filed.\n\n1. The label is in your email.\n2. The refund goes to your card. Would you rather have store credit? Store credit is issued at once.',
      '- **Size:** Is size M still right for the exchange? If not, tell me the size you prefer.',
      // After the clause or the note that leads its sentence, and as a terse go-ahead.
      'Your order #W9000201 is updated.\n\n1. The kettle is now blue.\n2. Since it ships later, do you still want the gift note on it, or should I drop it? The note costs $2.\n3. Delivery is on Friday.',
      'Your order #W9000201 is updated.\n\n- **Card:** I see two cards on file — which one would you like charged for the difference? The older one looks expired.',
      'Your order #W9000201 is updated.\n\n- **Difference:** $24.10. Okay to charge this to the Visa on file? The change is held until then.',
    ]) expect(retail(text), text).toMatchObject({ closes: false });
    // A list item that only tells, with a question in quotes, or questions in the user's own voice that the message answers, as
    // an FAQ puts them, ask nothing.
    for (const text of [
      'Your order #W9000201 has been cancelled.\n\n- The refund goes back to your card. You asked "can I get it on a gift card?" and it cannot be moved.',
      'Your return for #W9000201 is filed.\n\n**Quick answers:**\n- **Do I need to ship the item back?** No, you can keep it.\n- **Will I get a confirmation?** Yes, it is in your inbox.\n- **What do I need to do next?** Nothing.\n\nThanks for shopping with us!',
      'Your return for #W9000201 is filed.\n\n**What happens next?**\nYour refund arrives in 5 to 7 business days.',
      // Nor one the message asks and answers itself, not in the user's voice.
      'Your order #W9000201 is cancelled.\n\n## Why isn\'t the refund the full $212?\nBecause the shipping fee was already spent.',
      'Your order #W9000201 is cancelled.\n\n## What\'s next?\n- The refund reaches your card in 5 days.\n- You get an email today.',
      'Your order #W9000201 is updated.\n\n**Can I change the color later?**\nYes, until it ships.\n\n**When does it ship?**\nOn Friday.',
    ]) expect(retail(text), text).toMatchObject({ closes: true });
    // One that names the user, or that ends the message unanswered, is put to the user.
    for (const text of ['Your order #W9000201 is updated. Do I need to update your address too? I can do it now.', 'Your order #W9000201 is updated.\n\n- Do I need to change the gift wrap as well? I can do it now.', 'Your order #W9000201 is updated.\n\nWhat happens next?', 'Your order #W9000201 is cancelled. Why not reorder the blue one instead? It is in stock.', 'Your order #W9000201 is updated. Does this work for you? It ships tomorrow.', 'The kettle has shipped.\n\n1. Can I cancel the original backorder now? That way you are not charged twice.\n2. The label is on your order page.', 'I see the duplicate charge on #W9000201. Before I file the refund, just need the last four digits of the card so I can match it up.']) {
      expect(retail(text), text).toMatchObject({ closes: false });
    }
  });

  it('reads a need told after a title, a bare request, an "action needed" line and a missing value with its request as asks, and closing tails, section questions and answered questions of the user as none', () => {
    const retail = (t: string) => reading('retail', t);
    const travel = (t: string) => reading('travel', t);
    // A title's period ends no sentence: the need after "Ms." is read whole.
    expect(travel("Once I have Ms. Rivera's date of birth, I can add her to reservation R900401 — it's the last detail I need.")).toMatchObject({ closes: false });
    for (const text of [
      'Here are the sizes still in stock for the boots: 8, 9 and 11.\n\nJust reply with the size you want and I will swap it in.',
      '**Action needed: pick a card for the $14.20 difference**\n\nYour gift card does not cover it. On file: Visa ending 1111, Mastercard ending 2222.',
      "Here's where the address change for #W9000402 stands:\n\n- **Street:** 8 Lake Rd\n- **Missing:** the ZIP code — please send it over\n- **Items:** all 2 items",
    ]) expect(retail(text), text).toMatchObject({ closes: false });
    // "No action needed" asks nothing.
    expect(retail('Your order #W9000403 has been cancelled. No action needed on your side.')).toMatchObject({ closes: true });
    for (const text of [
      // A bare "let me know" after a closing offer goes on with the offer.
      'Your order #W9000404 has been cancelled and refunded to PayPal.\n\nAnything else I can help with? Just let me know.',
      // A section's question, in the user's voice, with its answer under it.
      "Your return for #W9000405 is filed.\n\n### Didn't get the label?\nCheck your spam folder; it can take an hour.",
      "Your bags are added.\n\n### Where's my receipt?\nIt was sent to the email on file.",
      // A question of what the user must do, answered yes or no at once.
      'The exchange for #W9000406 is filed. Do you need to keep the tags on? No — any condition is fine. The label is in your email.',
    ]) expect(retail(text), text).toMatchObject({ closes: true });
    // Not a "let me know" after a statement of options, nor a question of the user answered only with "No worries".
    expect(retail('You can keep the refund on your card or move it to a gift card. Just let me know.')).toMatchObject({ closes: false });
    expect(retail('Do you need to keep the tags on? No worries if you are not sure, I can check.')).toMatchObject({ closes: false });
  });

  it('reads a form to fill in, a run-on question, "a yes from you", a detail still missing and a question in a dict as asks, and checks the message answers itself and teasers as none', () => {
    const retail = (t: string) => reading('retail', t);
    const travel = (t: string) => reading('travel', t);
    for (const text of [
      'Here are the sizes for #W9000601:\n\n| Size | In stock |\n|---|---|\n| 9 | yes |\n| Your pick | _please fill in_ |',
      'Exchange for order #W9000602\nNew color: ______\n\nJust fill in the blank and I will take it from there.',
      "{'order_id': '#W9000603', 'question': 'Which item would you like to return, the lamp or the rug?'}",
    ]) expect(retail(text), text).toMatchObject({ closes: false });
    for (const text of [
      'ok i can move the flight for you which day do you want to fly and do you want to keep economy',
      'Adding 2 bags to R900604 comes to $100. A simple "yes" from you and I will add them.',
      "Thanks, I have found R900605. I still don't have the new passenger's date of birth. Once I have it, I will add her.",
    ]) expect(travel(text), text).toMatchObject({ closes: false });
    for (const text of [
      'Exchange for #W9000606\nStatus: received\nAction required: none. The return label comes by email.',
      'Quick check on my side — does gift card gift_card_7001 cover the $18.40 difference? Yes, $62.00 remains. The exchange is complete.',
      'Querying stock: is the blue kettle still available? Result: 3 left. Your order #W9000607 now has the blue kettle.',
      "I've updated the address on #W9000608. Curious what changed? Here's the summary: the street is now 9 Pine St.",
      'I added the gift wrap to #W9000609, as you asked — want the details? They\'re below:\n- Cost: $4\n- Paper: blue',
    ]) expect(retail(text), text).toMatchObject({ closes: true });
    // An answer that is the agent's offer, and a teaser of the agent's own step, are still put to the user.
    expect(retail('Does the gift card cover it? I can check that for you.')).toMatchObject({ closes: false });
    expect(retail('Want me to cancel #W9000610? Here is what it would cost: nothing.')).toMatchObject({ closes: false });
  });

  it('reads a question quoted after a colon or a verb of saying as no question, and "if you\'d share …" as an ask', () => {
    const retail = (t: string) => reading('retail', t);
    const travel = (t: string) => reading('travel', t);
    for (const text of [
      'Our return policy states: "Can I return an opened item? Yes, within 30 days." Your blender was delivered 12 days ago, so it is within the window.',
      "For reference, the policy reads: 'Can I cancel for any reason? Only within 24 hours of booking.' Your booking was made 3 days ago.",
      'Recap: earlier you asked "Which of my orders is still pending?" #W9000701 was pending and is now cancelled.',
    ]) expect(retail(text), text).toMatchObject({ closes: true });
    // A whole message in quotes is still read, and a question outside the quotes still asks.
    expect(retail('"Thanks, Amara. What ZIP code is on the account?"')).toMatchObject({ closes: false });
    expect(retail('The policy reads: "Returns within 30 days." Would you like me to start the return for #W9000702?')).toMatchObject({ closes: false });
    expect(travel("Thanks, you're verified. If you'd share which reservation you mean, I can look at the flights right away.")).toMatchObject({ closes: false });
  });

  it('reads a request with "also" or "first" in it as an ask, and a question of what a thing means to the user, answered at once, as none', () => {
    const retail = (t: string) => reading('retail', t);
    const travel = (t: string) => reading('travel', t);
    for (const text of ['Thank you, Yusuf. To locate your account, please also provide your zip code.', 'Happy to help. To get started, I first need your email address, or your name and zip code.']) {
      expect(retail(text), text).toMatchObject({ closes: false });
    }
    for (const text of [
      "I've checked SK 150 for you: it is on time. Wondering about your bags? As a gold member you have 3 free checked bags, and you have 2.",
      'Reservation R900701 has been cancelled. What does this mean for your reservation? The full $486 goes back to your card within 5 to 7 business days.',
      'Your order is cancelled. What if you change your mind later? You are always welcome to place a new order on the website.',
    ]) expect(reading(/order/.test(text) && !/Reservation/.test(text) ? 'retail' : 'travel', text), text).toMatchObject({ closes: true });
    // The same questions, answered by an offer or an ask, are still put to the user.
    expect(travel('Wondering about your bags? Let me know and I will check.')).toMatchObject({ closes: false });
    expect(travel('What does this mean for your trip? Would you like me to rebook you?')).toMatchObject({ closes: false });
    expect(retail('Please just note the refund takes 5 days.')).toMatchObject({ closes: true });
    // A question of what the user wants or which, however it opens, is put to the user.
    for (const text of ['Wondering whether you would like me to cancel the other reservation too? That would refund $120.', 'What does this mean for your reservation? You can keep it or cancel it, whichever you prefer.', 'Curious about which address to use? The default one is on file.']) {
      expect(travel(text), text).toMatchObject({ closes: false });
    }
  });

  it('reads typographic apostrophes and quotes as plain ones', () => {
    const retail = (t: string) => reading('retail', t);
    // "I’ll need your user ID" asks as "I'll need your user ID" does.
    for (const text of ["I can help with that. I'll need your email address and the order ID to get started.", 'Order #W8367380 can be cancelled. Just say so if you\'d like me to go ahead!']) {
      const curly = text.replace(/'/g, '\u2019').replace(/"([^"]*)"/g, '\u201c$1\u201d');
      expect(curly).not.toBe(text);
      expect(retail(curly)).toEqual(retail(text));
      expect(retail(curly)).toMatchObject({ closes: false });
    }
  });

  it('is the reading of its text in its language, shared and frozen', () => {
    const retail = getWorld('retail').userLanguage;
    const travel = getWorld('travel').userLanguage;
    const text = 'What is your reservation number?';
    const first = readAgentMessage(text, retail);
    expect(first.asks).toEqual([{ kind: 'unplaced', text }]);
    // Remembered per language: the same text in the travel desk's words is a reservation asked for.
    expect(readAgentMessage(text, travel).asks).toEqual([{ kind: 'slot', slot: 'reservation', text }]);
    const again = readAgentMessage(text, retail);
    expect(again).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.asks) && Object.isFrozen(first.asks[0]) && Object.isFrozen(first.units)).toBe(true);
    expect(() => (first.asks as unknown[]).push({ kind: 'help', text })).toThrow(TypeError);
    expect(readAgentMessage(text, retail).asks).toHaveLength(1);
  });
});
