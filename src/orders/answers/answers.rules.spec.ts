import { answerRefs, checkAnswers } from './answers.rules';

describe('answer rules', () => {
  const questions = new Map([
    [1, { id: 1, eventId: 5, type: 'B', identifier: 'Q1' }],
    [2, { id: 2, eventId: 5, type: 'M', identifier: 'Q2' }],
    [3, { id: 3, eventId: 6, type: 'S', identifier: 'Q3' }],
  ]);
  const options = new Map([
    [20, { id: 20, questionId: 2, answer: { en: 'Red' }, identifier: 'O20', position: 1 }],
    [21, { id: 21, questionId: 2, answer: { en: 'Blue' }, identifier: 'O21', position: 0 }],
  ]);

  it('collects the question and option ids of a request', () => {
    expect(
      answerRefs([
        [{ question: 1 }, { question: 2, options: [20, 21] }],
        undefined,
        [{ question: 2, options: [20] }],
      ]),
    ).toEqual({
      questionIds: [1, 2],
      optionIds: [20, 21],
    });
  });

  it('normalises booleans, joins option names, keeps the first answer to a question', () => {
    const result = checkAnswers(
      [
        [
          { question: 1, answer: '1' },
          { question: 2, options: [20, 21] },
          { question: 1, answer: 'false' },
        ],
      ],
      5,
      questions,
      options,
    );
    expect(result.errors).toEqual([null]);
    expect(result.answers[0]).toEqual([
      { questionId: 1, answer: 'True', optionIds: [] },
      { questionId: 2, answer: 'Red, Blue', optionIds: [20, 21] },
    ]);
  });

  it('aligns errors with the answers: unknown, other event, bad value', () => {
    const result = checkAnswers(
      [
        [
          { question: 9 },
          { question: 3, answer: 'x' },
          { question: 1, answer: 'maybe' },
          { question: 1, answer: 'true' },
        ],
      ],
      5,
      questions,
      options,
    );
    expect(result.errors[0]).toEqual([
      { question: ['Invalid pk "9" - object does not exist.'] },
      { question: ['The specified question does not belong to this event.'] },
      { non_field_errors: ['Please specify "true" or "false" for boolean questions.'] },
      {},
    ]);
  });
});
