/** GitBook's Emoji: one emoji by its characters or its hexadecimal code points, nothing else. */
import { EMOJI_MAX, isEmoji } from '../../domain/emoji';

describe('isEmoji', () => {
  it.each(['🚀', '👩‍💻', '🇫🇷', '👍🏽', '#️⃣', '❤️', '1f680', '1F680', '1f1eb-1f1f7', '1f469-200d-1f4bb'])(
    'accepts %s',
    (emoji) => expect(isEmoji(emoji)).toBe(true),
  );

  it.each(['not-an-emoji', 'a', '1', '', '🚀🚀', '🚀 ', 'ffff', '110000', 'd83d', '1f680-', '1f680-1f680', ':tada:'])(
    'refuses %j',
    (text) => expect(isEmoji(text)).toBe(false),
  );

  it(`refuses more than ${EMOJI_MAX} characters, even of code points`, () => {
    expect(isEmoji(Array(9).fill('1f469').join('-'))).toBe(false);
  });
});
