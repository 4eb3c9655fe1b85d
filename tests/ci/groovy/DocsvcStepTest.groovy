// Runs the Jenkins shared-library step vars/docsvc.groovy under plain Groovy with the pipeline
// steps stubbed: sh really runs its script (so a real sync reaches the local service), bat is
// recorded, withCredentials takes the secret from TEST_CREDENTIAL like a credential store would.
//   groovy DocsvcStepTest.groovy path/to/vars/docsvc.groovy INTEGRATION_ID
// Prints one line per check and "N passed, M failed"; exits 1 on a failure.

class Recorder {
    List<Map> calls = []
    Map<String, String> env = [:]
    boolean unix = true
    String output = ''
}

def load(String path, Recorder rec) {
    def binding = new Binding()
    binding.setVariable('env', rec.env)
    binding.setVariable('isUnix', { -> rec.unix })
    binding.setVariable('error', { String message -> throw new IllegalStateException(message) })
    binding.setVariable('string', { Map spec -> [kind: 'string'] + spec })
    binding.setVariable('withCredentials', { List specs, Closure body ->
        def saved = new LinkedHashMap(rec.env)
        specs.each { rec.env[it.variable] = System.getenv('TEST_CREDENTIAL') }
        rec.calls << [step: 'withCredentials', ids: specs*.credentialsId]
        try { body.call() } finally { rec.env.clear(); rec.env.putAll(saved) }
    })
    binding.setVariable('withEnv', { List<String> pairs, Closure body ->
        def saved = new LinkedHashMap(rec.env)
        pairs.each { String pair -> def i = pair.indexOf('='); rec.env[pair.substring(0, i)] = pair.substring(i + 1) }
        try { body.call() } finally { rec.env.clear(); rec.env.putAll(saved) }
    })
    binding.setVariable('sh', { Map args ->
        rec.calls << [step: 'sh', script: args.script, label: args.label, env: new LinkedHashMap(rec.env)]
        def pb = new ProcessBuilder('bash', '-c', args.script).redirectErrorStream(true)
        pb.environment().putAll(rec.env)
        def process = pb.start()
        def text = process.inputStream.text
        rec.output += text
        if (process.waitFor() != 0) { throw new IllegalStateException("script returned exit code ${process.exitValue()}") }
    })
    binding.setVariable('bat', { Map args -> rec.calls << [step: 'bat', script: args.script, env: new LinkedHashMap(rec.env)] })
    new GroovyShell(this.class.classLoader, binding).parse(new File(path))
}

String stepPath = args[0]
String integrationId = args[1]
String key = System.getenv('TEST_CREDENTIAL')
int passed = 0, failed = 0
def check = { String name, Closure body ->
    try { body(); passed++; println "ok - ${name}" }
    catch (Throwable t) { failed++; println "not ok - ${name}: ${t}" }
}

check('a real sync on a Unix agent') {
    def rec = new Recorder(env: [DOCSVC_BASE_URL: System.getenv('DOCSVC_BASE_URL'), JENKINS_URL: 'https://ci.test/',
                                 PATH: System.getenv('PATH'), HOME: System.getenv('HOME')])
    load(stepPath, rec).call(operation: 'sync', integrationId: integrationId as int, credentialsId: 'docsvc-api-key',
                             summaryFile: System.getenv('SUMMARY_FILE'))
    def sh = rec.calls.find { it.step == 'sh' }
    assert rec.calls*.step == ['withCredentials', 'sh']
    assert rec.calls[0].ids == ['docsvc-api-key']
    assert sh.script == 'python3 -m docsvc.ci "$DOCSVC_OPERATION"'
    assert sh.env.DOCSVC_OPERATION == 'sync' && sh.env.DOCSVC_INTEGRATION_ID == integrationId
    assert rec.output.contains("Sync of integration ${integrationId}: completed")
    assert !rec.output.contains(key) && !rec.calls.findAll { it.script }*.script.any { it.contains(key) }
    assert !rec.env.containsKey('DOCSVC_API_KEY')  // gone once withCredentials is over
}

check('hostile input stays data') {
    String marker = System.getenv('PWNED_MARKER')
    String hostile = "'; touch ${marker}; echo \"\$(touch ${marker})\" `touch ${marker}` \${env.PATH}"
    def rec = new Recorder(env: [PATH: System.getenv('PATH'), HOME: System.getenv('HOME')])
    load(stepPath, rec).call(operation: 'docflow', integrationId: 3, prNumber: 7, prTitle: hostile, prBody: hostile,
                             prAuthor: 'mallory', dryRun: true, ciProvider: 'local')
    def sh = rec.calls.find { it.step == 'sh' }
    assert sh.script == 'python3 -m docsvc.ci "$DOCSVC_OPERATION"'
    assert sh.env.DOCSVC_PR_TITLE == hostile
    assert !new File(marker).exists()
    assert rec.output.contains('Dry run: would POST')
}

check('bat on a Windows agent') {
    def rec = new Recorder(unix: false)
    load(stepPath, rec).call(operation: 'sync', integrationId: 12, package: 'docsvc-cli==1.2.0')
    assert rec.calls*.step == ['withCredentials', 'bat', 'bat']
    assert rec.calls[1].script == 'python -m pip install --quiet "%DOCSVC_PACKAGE%"'
    assert rec.calls[2].script == 'python -m docsvc.ci "%DOCSVC_OPERATION%"'
    assert rec.calls[2].env.DOCSVC_PACKAGE == 'docsvc-cli==1.2.0'
}

check('an unknown argument is refused by name') {
    try { load(stepPath, new Recorder()).call(operation: 'sync', integrationID: 1); assert false }
    catch (IllegalStateException e) { assert e.message == "docsvc: unknown argument 'integrationID'" }
}

check('the operation is required') {
    try { load(stepPath, new Recorder()).call(integrationId: 1); assert false }
    catch (IllegalStateException e) { assert e.message.startsWith('docsvc: operation is required') }
}

println "${passed} passed, ${failed} failed"
System.exit(failed ? 1 : 0)
