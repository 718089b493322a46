import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argPairs, isParameterList, xmlArguments } from './xml-parameters.js';

test('a parameter list becomes JSON arguments: strings without a schema, the template’s own line breaks dropped', () => {
  assert.equal(
    xmlArguments('<parameter=path>\r\nsrc/a.ts\r\n</parameter>\n<parameter=n>\n3\n</parameter>', undefined),
    '{"path":"src/a.ts","n":"3"}',
  );
  assert.equal(xmlArguments('', undefined), '{}', 'no parameters: a call without arguments');
  assert.equal(xmlArguments('<parameter=n>\n3.5\n</parameter>', new Map([['n', 'number']])), '{"n":3.5}');
  assert.equal(
    xmlArguments('<parameter=n>\n3.5\n</parameter>', new Map([['n', 'integer']])),
    '{"n":"3.5"}',
    'not an integer: as written',
  );
});

test('anything but a parameter list is no arguments', () => {
  for (const text of [
    '<parameter=path>\na.txt\n', // no close
    '<parameter=bad name>\nx\n</parameter>',
    '<parameter=path>\na\n</parameter>\nand words',
  ])
    assert.equal(xmlArguments(text, undefined), null, text);
  assert.equal(isParameterList('<parameter=a>'), true);
  assert.equal(isParameterList('{"a": 1}'), false);
});

test('GLM’s key and value pairs become JSON arguments, each value trimmed and typed; anything else is none', () => {
  const types = new Map([['n', 'integer']]);
  assert.equal(
    argPairs(
      '<arg_key>path</arg_key>\n<arg_value> a.txt\n</arg_value>\n<arg_key>n</arg_key><arg_value>2</arg_value>',
      types,
    ),
    '{"path":"a.txt","n":2}',
  );
  assert.equal(argPairs('', undefined), '{}');
  for (const text of [
    '<arg_key>path</arg_key>', // no value
    '<arg_key>path</arg_key><arg_value>a', // value not closed
    '<arg_key>two words</arg_key><arg_value>a</arg_value>',
    '<arg_key>path</arg_key><arg_value>a</arg_value> and words',
  ])
    assert.equal(argPairs(text, undefined), null, text);
});
