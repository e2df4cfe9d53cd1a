import { describe, expect, it } from 'vitest';
import { contentHash, parseAggregativeDataset, parseEvaluationQuestions } from '../../core/index.ts';

describe('the questions file', () => {
  it('reads question, gold text, SQL and structured gold per line', () => {
    const text = [
      '{"question": "How many hotels are in Rome?", "answer": "8", "sql": "SELECT COUNT(*) FROM hotels WHERE city = \'Rome\'", "gold": 8, "kind": "count"}',
      '',
      '{"question": "Which hotels have a pool?", "answer": "A, B", "gold": ["A", "B"], "id": 7}',
      '{"question": "Is it open?", "answer": true}',
    ].join('\n');
    expect(parseEvaluationQuestions(text, 'questions.jsonl')).toEqual([
      { question: 'How many hotels are in Rome?', answer: '8', sql: "SELECT COUNT(*) FROM hotels WHERE city = 'Rome'", gold: 8 },
      { question: 'Which hotels have a pool?', answer: 'A, B', gold: ['A', 'B'], id: '7' },
      { question: 'Is it open?', answer: 'true' },
    ]);
  });

  it('names the file and line of a bad entry', () => {
    expect(() => parseEvaluationQuestions('{"question": "Q?", "answer": "1"}\n{"question": "R?"}', 'q.jsonl')).toThrow('q.jsonl:2 has no "answer" (the gold answer as text)');
    expect(() => parseEvaluationQuestions('{"question": "Q?", "answer": "1", "gold": {"x": 1}}', 'q.jsonl')).toThrow(/q\.jsonl:1 has a "gold" that is not/);
    expect(() => parseEvaluationQuestions('not json', 'q.jsonl')).toThrow('q.jsonl:1 is not valid JSON');
  });
});

describe('the AI21 aggregative_questions layout', () => {
  const corpusText = [
    JSON.stringify({ id: 'hotel_1', text: '<html><body><h1>Amber Court</h1><p>A hotel in Paris.</p></body></html>' }),
    JSON.stringify({ id: 'hotel_2', text: 'Opal Tower is a hotel in Rome.' }),
  ].join('\n');
  const questionsText = JSON.stringify({ question: 'How many hotels are in Paris?', answer: 'There is one hotel in Paris.' });

  it('reads documents (HTML reduced to text) and questions, and says which fields it used', () => {
    const dataset = parseAggregativeDataset({ corpusText, corpusName: 'corpus.jsonl', questionsText, questionsName: 'questions.jsonl' });
    expect(dataset.fields).toEqual({ documentId: 'id', documentText: 'text', question: 'question', answer: 'answer' });
    expect(dataset.documents.map((document) => document.source)).toEqual(['hotel_1', 'hotel_2']);
    expect(dataset.documents[0]!.text).toContain('Amber Court');
    expect(dataset.documents[0]!.text).not.toContain('<h1>');
    expect(dataset.questions).toEqual([{ question: 'How many hotels are in Paris?', answer: 'There is one hotel in Paris.' }]);
  });

  it('accepts the other usual field names', () => {
    const dataset = parseAggregativeDataset({
      corpusText: JSON.stringify({ doc_id: 'a', content: 'Text.' }), corpusName: 'corpus.jsonl',
      questionsText: JSON.stringify({ query: 'Q?', gold_answer: 3, question_id: 'q1' }), questionsName: 'questions.jsonl',
    });
    expect(dataset.fields).toEqual({ documentId: 'doc_id', documentText: 'content', question: 'query', answer: 'gold_answer' });
    expect(dataset.questions).toEqual([{ question: 'Q?', answer: '3', id: 'q1' }]);
  });

  it('reads the release\'s document_content, and makes a stable id from each text where lines have none', () => {
    const corpus = (texts: string[]) => texts.map((text) => JSON.stringify({ document_content: text })).join('\n');
    const parse = (texts: string[]) => parseAggregativeDataset({ corpusText: corpus(texts), corpusName: 'corpus.jsonl', questionsText, questionsName: 'questions.jsonl' });
    const dataset = parse(['Opal Tower is a hotel in Rome.', 'Amber Court is a hotel in Paris.', 'Opal Tower is a hotel in Rome.']);
    expect(dataset.fields).toEqual({ documentId: null, documentText: 'document_content', question: 'question', answer: 'answer' });
    const [opal, amber, copy] = dataset.documents.map((document) => document.source);
    expect(opal).toBe(`doc-${contentHash('Opal Tower is a hotel in Rome.').slice(0, 12)}`);
    expect(copy).toBe(`${opal}-2`);
    // The same text keeps its id whatever comes before it: a rerun finds its record.
    expect(parse(['A new first line.', 'Amber Court is a hotel in Paris.']).documents[1]!.source).toBe(amber);
  });

  it('fails with the field names it expected and found, and on duplicate or empty documents', () => {
    const parse = (corpus: string, questions = questionsText) =>
      () => parseAggregativeDataset({ corpusText: corpus, corpusName: 'corpus.jsonl', questionsText: questions, questionsName: 'questions.jsonl' });
    expect(parse(JSON.stringify({ key: 'a', body_html: 'x' }))).toThrow('corpus.jsonl:1 has no field for the document text: expected one of "document_content", "text", "content", "contents", "document", "html", "page_content", "body", found "key", "body_html"');
    expect(parse(`${JSON.stringify({ id: 'a', text: 'x' })}\n${JSON.stringify({ id: 'a', text: 'y' })}`)).toThrow('corpus.jsonl:2 repeats the document id "a"');
    expect(parse(`${JSON.stringify({ id: 'a', text: 'x' })}\n${JSON.stringify({ id: 'b', text: ' ' })}`)).toThrow('corpus.jsonl:2 has no text in "text"');
    expect(parse(JSON.stringify({ id: 'a', text: 'x' }), JSON.stringify({ question: 'Q?' }))).toThrow(/questions\.jsonl:1 has no field for the gold answer/);
  });
});
