// How the Jenkins step vars/docsvc.groovy turns its arguments into DOCSVC_* variables, under plain
// Groovy with the pipeline steps stubbed and nothing run: sh and bat only record their environment.
//   groovy DocsvcArgumentsTest.groovy path/to/vars/docsvc.groovy
// Prints one line per check and "N passed, M failed"; exits 1 on a failure.

class Recorder {
    List<Map> calls = []
    Map<String, String> env = [:]
}

def load(String path, Recorder rec) {
    def binding = new Binding()
    binding.setVariable('env', rec.env)
    binding.setVariable('isUnix', { -> true })
    binding.setVariable('error', { String message -> throw new IllegalStateException(message) })
    binding.setVariable('string', { Map spec -> [kind: 'string'] + spec })
    binding.setVariable('withCredentials', { List specs, Closure body -> body.call() })
    binding.setVariable('writeFile', { Map args -> })
    binding.setVariable('withEnv', { List<String> pairs, Closure body ->
        def saved = new LinkedHashMap(rec.env)
        pairs.each { String pair -> def i = pair.indexOf('='); rec.env[pair.substring(0, i)] = pair.substring(i + 1) }
        try { body.call() } finally { rec.env.clear(); rec.env.putAll(saved) }
    })
    binding.setVariable('sh', { Map args -> rec.calls << [step: 'sh', label: args.label, env: new LinkedHashMap(rec.env)] })
    binding.setVariable('bat', { Map args -> rec.calls << [step: 'bat', env: new LinkedHashMap(rec.env)] })
    new GroovyShell(this.class.classLoader, binding).parse(new File(path))
}

String stepPath = args[0]
int passed = 0, failed = 0
def check = { String name, Closure body ->
    try { body(); passed++; println "ok - ${name}" }
    catch (Throwable t) { failed++; println "not ok - ${name}: ${t}" }
}
def runEnv = { Map arguments ->
    def rec = new Recorder(env: [WORKSPACE_TMP: '/ws@tmp'])
    load(stepPath, rec).call(arguments)
    return rec.calls.find { it.label?.startsWith('docsvc ') }.env
}

check('a null argument is left unset, never the text "null"') {
    Map unset = [:]  // env.UNSET of a real pipeline: null
    def env = runEnv(operation: 'docflow', integrationId: 3, prTitle: unset.UNSET, prBody: null, prNumber: 7)
    assert !env.containsKey('DOCSVC_PR_TITLE') && !env.containsKey('DOCSVC_PR_BODY')
    assert !env.values().any { it == 'null' }
    assert env.DOCSVC_PR_NUMBER == '7' && env.DOCSVC_INTEGRATION_ID == '3'
}

check('a list argument is joined with commas, as the list inputs split them') {
    def env = runEnv(operation: 'api-scan-pr', scanId: 7, to: ['docs', 'source'], ids: [4, 5] as Integer[])
    assert env.DOCSVC_TO == 'docs,source'
    assert env.DOCSVC_IDS == '4,5'
    assert runEnv(operation: 'api-scan-pr', scanId: 7, to: 'docs').DOCSVC_TO == 'docs'
}

check('false and an empty string are values, kept as they are') {
    def env = runEnv(operation: 'validate', runSwagger: false, file: '')
    assert env.DOCSVC_RUN_SWAGGER == 'false' && env.DOCSVC_FILE == ''
}

check('an unknown argument is refused by name, even when null') {
    try { runEnv(operation: 'sync', integrationID: null); assert false }
    catch (IllegalStateException e) { assert e.message == "docsvc: unknown argument 'integrationID'" }
}

println "${passed} passed, ${failed} failed"
System.exit(failed ? 1 : 0)
