/** Turns a zod failure into the one-line 400 message every validation error has: "<field>: <rule>". */
import { ZodError, ZodIssue } from 'zod';
import { AppError, notFound } from '../domain/errors';

function fieldOf(issue: ZodIssue, location: string): string {
  return issue.path.length ? issue.path.join('.') : location;
}

function ruleOf(issue: ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.received === 'undefined') return 'is required';
      // an enum given the wrong type reports its options as "'a' | 'b'"
      if (issue.expected.includes("'"))
        return `must be one of ${issue.expected.replace(/'/g, '').split(' | ').join(', ')}`;
      return `must be ${article(issue.expected)}, not ${issue.received}`;
    case 'too_small':
      if (issue.type === 'string')
        return `must be at least ${issue.minimum} character${issue.minimum === 1 ? '' : 's'}`;
      if (issue.type === 'array') return `must have at least ${issue.minimum} items`;
      return `must be ${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}`;
    case 'too_big':
      if (issue.type === 'string') return `must be at most ${issue.maximum} characters`;
      if (issue.type === 'array') return `must have at most ${issue.maximum} items`;
      return `must be ${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum}`;
    case 'invalid_enum_value':
      return `must be one of ${issue.options.map(String).join(', ')}`;
    case 'invalid_literal':
      return `must be ${JSON.stringify(issue.expected)}`;
    case 'invalid_string':
      // a schema's own wording (`.regex(re, 'must be an integer')`) beats the generic one
      if (issue.validation === 'regex')
        return issue.message && issue.message !== 'Invalid' ? issue.message : 'has an invalid format';
      return `must be a valid ${String(issue.validation)}`;
    case 'invalid_union':
      return 'does not match any allowed form';
    default:
      return issue.message;
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

export function validationError(error: ZodError, location: string): AppError {
  const issue = error.issues[0];
  // a path id outside the id alphabet (pathId in api/schemas.ts) names nothing
  if (issue.code === 'custom' && typeof issue.params?.notFound === 'string') return notFound(issue.params.notFound);
  if (issue.code === 'unrecognized_keys') {
    const prefix = issue.path.length ? `${issue.path.join('.')}.` : '';
    return new AppError(400, `${prefix}${issue.keys[0]}: unknown field`);
  }
  return new AppError(400, `${fieldOf(issue, location)}: ${ruleOf(issue)}`);
}
