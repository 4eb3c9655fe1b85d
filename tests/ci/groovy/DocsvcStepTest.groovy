// Runs the Jenkins shared-library step vars/docsvc.groovy under plain Groovy with the pipeline
// steps stubbed: sh really runs its script (so a real sync reaches the local service), bat is
// recorded, withCredentials takes the secret from TEST_CREDENTIAL like a credential store would.
//   groovy DocsvcStepTest.groovy path/to/vars/docsvc.groovy INTEGRATION_ID
// SOURCE_REPO is a git repository standing in for docsvc's own (with the tag of LIBRARY_VERSION);
// WORKSPACE_TMP is the build's @tmp folder, where the step keeps its venv.
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
    binding.setVariable('writeFile', { Map args ->  // Jenkins creates the folders; a Windows path is only recorded
        rec.calls << [step: 'writeFile', file: args.file, text: args.text]
        if (rec.unix) { new File(args.file).parentFile.mkdirs(); new File(args.file).text = args.text }
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

String source = "file://${System.getenv('SOURCE_REPO')}"
String version = System.getenv('LIBRARY_VERSION')
Map agent = [PATH: System.getenv('PATH'), HOME: System.getenv('HOME'), WORKSPACE_TMP: System.getenv('WORKSPACE_TMP'),
             PIP_CACHE_DIR: System.getenv('PIP_CACHE_DIR')]

check('a real sync on a Unix agent, with the library version of docsvc installed') {
    def rec = new Recorder(env: agent + [DOCSVC_BASE_URL: System.getenv('DOCSVC_BASE_URL'), JENKINS_URL: 'https://ci.test/'])
    load(stepPath, rec).call(operation: 'sync', integrationId: integrationId as int, credentialsId: 'docsvc-api-key',
                             summaryFile: System.getenv('SUMMARY_FILE'), source: source)
    assert rec.calls*.step == ['writeFile', 'sh', 'withCredentials', 'sh']
    def (constraints, install, credentials, run) = rec.calls
    assert constraints.file == install.env.DOCSVC_CONSTRAINTS_FILE && constraints.text.contains('==')
    assert install.label == 'install docsvc' && !install.env.containsKey('DOCSVC_API_KEY')  // no key while pip runs
    assert install.env.DOCSVC_PACKAGE == "git+${source}@v${version}"
    assert install.env.DOCSVC_VENV.startsWith(System.getenv('WORKSPACE_TMP') + '/docsvc-venv-')
    assert credentials.ids == ['docsvc-api-key']
    assert run.script == '"$DOCSVC_VENV/bin/python" -m docsvc.ci "$DOCSVC_OPERATION"'
    assert run.env.DOCSVC_OPERATION == 'sync' && run.env.DOCSVC_INTEGRATION_ID == integrationId
    assert rec.output.contains("Sync of integration ${integrationId}: completed")
    assert !rec.output.contains(key) && !rec.calls.findAll { it.script }*.script.any { it.contains(key) }
    assert !rec.env.containsKey('DOCSVC_API_KEY')  // gone once withCredentials is over
}

check('hostile input stays data, and a second call reuses the venv') {
    String marker = System.getenv('PWNED_MARKER')
    String hostile = "'; touch ${marker}; echo \"\$(touch ${marker})\" `touch ${marker}` \${env.PATH}"
    def rec = new Recorder(env: new LinkedHashMap(agent))
    long started = System.currentTimeMillis()
    load(stepPath, rec).call(operation: 'docflow', integrationId: 3, prNumber: 7, prTitle: hostile, prBody: hostile,
                             prAuthor: 'mallory', dryRun: true, ciProvider: 'local', source: source)
    def run = rec.calls.findAll { it.step == 'sh' }[1]
    assert run.env.DOCSVC_PR_TITLE == hostile
    assert !new File(marker).exists()
    assert rec.output.contains('Dry run: would POST')
    assert new File(System.getenv('WORKSPACE_TMP')).list().findAll { it.startsWith('docsvc-venv-') }.size() == 1
    assert System.currentTimeMillis() - started < 20000  // no second install
}

check('a pull-request build without a description: an empty body, or the SCM\'s when the pipeline has it') {
    Map pr = agent + [JENKINS_URL: 'https://ci.test/', CHANGE_ID: '5', CHANGE_TITLE: 'Add --retries',
                      CHANGE_AUTHOR: 'ana', CHANGE_BRANCH: 'retries', BRANCH_NAME: 'PR-5']
    def rec = new Recorder(env: new LinkedHashMap(pr))
    load(stepPath, rec).call(operation: 'docflow', integrationId: 3, dryRun: true, source: source,
                             summaryFile: 'pr-summary.md')
    def run = rec.calls.findAll { it.step == 'sh' }[1]
    assert !run.env.containsKey('DOCSVC_PR_BODY')
    assert rec.output.contains('"body": ""') && rec.output.contains('"title": "Add --retries"')
    def withPlugin = new Recorder(env: new LinkedHashMap(pr))
    def step = load(stepPath, withPlugin)
    step.binding.setVariable('pullRequest', [body: 'Retries failed uploads three times.'])
    step.call(operation: 'docflow', integrationId: 3, dryRun: true, source: source, summaryFile: 'pr-summary.md')
    assert withPlugin.calls.findAll { it.step == 'sh' }[1].env.DOCSVC_PR_BODY == 'Retries failed uploads three times.'
    assert withPlugin.output.contains('"body": "Retries failed uploads three times."')
}

check('bat on a Windows agent') {
    def rec = new Recorder(unix: false, env: [WORKSPACE: 'C:\\ws'])
    load(stepPath, rec).call(operation: 'sync', integrationId: 12, package: 'docsvc-cli==1.2.0')
    assert rec.calls*.step == ['writeFile', 'bat', 'withCredentials', 'bat']
    assert rec.calls[1].script.contains('"%DOCSVC_VENV%\\Scripts\\python" -m pip install --quiet --disable-pip-version-check --constraint "%DOCSVC_CONSTRAINTS_FILE%" "%DOCSVC_PACKAGE%"')
    assert rec.calls[3].script == '"%DOCSVC_VENV%\\Scripts\\python" -m docsvc.ci "%DOCSVC_OPERATION%"'
    assert rec.calls[3].env.DOCSVC_PACKAGE == 'docsvc-cli==1.2.0'
    assert rec.calls[3].env.DOCSVC_VENV.startsWith('C:\\ws@tmp/docsvc-venv-')
    assert rec.calls[0].file == rec.calls[3].env.DOCSVC_CONSTRAINTS_FILE
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
