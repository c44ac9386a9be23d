// Counts the required tests passed in a cache-tests results file, each judged on its own (a test
// whose dependency failed is judged by its own result, not greyed out). Tests the CLI does not run
// (browser-only) count as not passed. Usage: node count.mjs SUITE_DIR RESULTS.json [--failed]
import fs from 'fs'
import path from 'path'
import { pathToFileURL } from 'url'

const [suiteDir, resultsFile, flag] = process.argv.slice(2)
const { default: suites } = await import(pathToFileURL(path.join(suiteDir, 'tests/index.mjs')))
const { determineTestResult, resultTypes } = await import(pathToFileURL(path.join(suiteDir, 'test-engine/lib/results.mjs')))
const results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'))
let required = 0
let passed = 0
const failed = []
for (const suite of suites) {
  for (const test of suite.tests) {
    if (test.kind !== undefined && test.kind !== 'required') continue
    required++
    if (determineTestResult(suites, test.id, results, false) === resultTypes.pass) {
      passed++
    } else {
      failed.push(test.id)
    }
  }
}
console.log(`${passed}/${required}`)
if (flag === '--failed') failed.forEach(id => console.log('  failed: ' + id))
