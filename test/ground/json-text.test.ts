// What a message written as JSON says (src/ground/json-text.ts): its strings, a status with its key, and the
// same for JSON that a model wrapped in one fenced code block.
import { describe, expect, it } from 'vitest';
import { messageText } from '../../src/ground/json-text.js';

describe('messageText', () => {
  it('reads a JSON message by its strings, and a status with its key', () => {
    expect(messageText('{"status": "success", "message": "Order #W1 is cancelled.", "next": ["Refund in 5 days"]}')).toBe('status: success\nOrder #W1 is cancelled.\nRefund in 5 days');
  });

  it('reads JSON in one fenced code block as the JSON it holds, with or without its language', () => {
    const inside = '{"order_id": "#W9000201", "confirm": "Reply yes to submit this return."}';
    for (const text of [`\`\`\`json\n${inside}\n\`\`\``, `\`\`\`\n${inside}\n\`\`\``, `  \`\`\`JSON ${inside}\`\`\`  `]) {
      expect(messageText(text), text).toBe('#W9000201\nReply yes to submit this return.');
    }
  });

  it('with lists, says a list of strings under its key as a list under a heading; without, as lines', () => {
    const text = '{"response": "I need a few details.", "required_information": ["Your user id", "Your reservation id"], "steps": [1, 2]}';
    expect(messageText(text, { lists: true })).toBe('I need a few details.\nrequired information:\n- Your user id\n- Your reservation id');
    expect(messageText(text)).toBe('I need a few details.\nYour user id\nYour reservation id');
    // An empty list, or one of objects, is walked as before.
    expect(messageText('{"next": [], "items": [{"name": "Lamp"}]}', { lists: true })).toBe('Lamp');
  });

  it('with keys, says a record\'s status and a reason with their key; without, as text', () => {
    const text = '{"reservation_id": "C4VJ8N", "eligible": false, "reason": "Booked more than 24 hours ago.", "reservation_status": "active", "cancel_reason": "change of plan"}';
    expect(messageText(text, { keys: true })).toBe('C4VJ8N\neligible: false\nreason: Booked more than 24 hours ago.\nreservation_status: active\nreason: change of plan');
    expect(messageText(text)).toBe('C4VJ8N\neligible: false\nBooked more than 24 hours ago.\nactive\nchange of plan');
    // A key that only ends in the words is no status or reason.
    expect(messageText('{"statusquo": "kept", "treason": "none"}', { keys: true })).toBe('kept\nnone');
  });

  it('leaves text alone: prose, prose around a fenced block, a fence of something else', () => {
    for (const text of ['Your order is cancelled.', 'Here it is:\n```json\n{"a": "b"}\n```\nAnything else?', '```\nsome code\n```']) {
      expect(messageText(text), text).toBe(text);
    }
  });
});
