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

  it('leaves text alone: prose, prose around a fenced block, a fence of something else', () => {
    for (const text of ['Your order is cancelled.', 'Here it is:\n```json\n{"a": "b"}\n```\nAnything else?', '```\nsome code\n```']) {
      expect(messageText(text), text).toBe(text);
    }
  });
});
