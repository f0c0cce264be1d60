package dev.sopline.standalone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sopline.gateway.GatewayApplication;
import dev.sopline.judgment.AgentProviders;
import dev.sopline.judgment.JudgmentWorker;
import dev.sopline.testing.SharedKafka;
import dev.sopline.testing.SopApi;
import dev.sopline.worker.SopWorker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.WindowType;
import org.openqa.selenium.support.ui.Select;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The task inbox in a real headless Chromium against the platform as the standalone launcher wires it (gateway, engine
 * and the judgment worker with its offline local agent) on the embedded broker: a person who never used the API signs in, registers a process, starts an instance, resolves a form and an
 * escalated judgment from the inbox, and watches the instance complete without reloading. A person with a viewer token
 * sees their role and no control their role may not use. The platform administrator creates a workspace from the page.
 */
class TaskInboxBrowserIT {

    static final String PROCESS = """
            engine: "0.1"
            process:
              name: purchase-request
              version: "1.0"
              description: A manager approves a purchase and the spend-policy agent checks it.
              trigger:
                type: api
              inputs:
                - name: item
                  type: string
                  required: true
                - name: amount
                  type: number
                  required: true
                - name: urgency
                  type: enum
                  values: [low, high]
                  required: true
              outputs:
                - name: approval
                - name: within_policy
              steps:
                - id: approve
                  name: Manager approval
                  type: form
                  inputs:
                    request: "${inputs.item} for ${inputs.amount}"
                  outputs:
                    - name: approval
                      type: enum
                      values: [approved, rejected]
                    - name: comment
                    - name: budget_code
                      type: integer
                - id: policy
                  name: Spend policy check
                  type: judgment
                  inputs:
                    amount: "${inputs.amount}"
                    approval: "${steps.approve.outputs.approval}"
                  judgment:
                    allow_agent: true
                    confidence_threshold: 0.99
                    escalate_to: human
                    instructions: Is this spend within the purchasing policy?
                  outputs:
                    - name: within_policy
                      type: enum
                      values: ["yes", "no"]
            """;

    static final String REVIEW_PROCESS = """
            engine: "0.1"
            process:
              name: viewer-review
              version: "1.0"
              trigger:
                type: api
              inputs:
                - name: item
                  type: string
                  required: true
              steps:
                - id: review
                  name: Review
                  type: form
                  inputs:
                    item: "${inputs.item}"
                  outputs:
                    - name: verdict
                      type: enum
                      values: [accepted, refused]
            """;

    static final String INVOICE_PROCESS = """
            engine: "0.1"
            process:
              name: invoice-check
              version: "1.0"
              trigger:
                type: api
              inputs:
                - name: supplier
                  type: string
                  required: true
              steps:
                - id: check
                  name: Check the invoice
                  type: form
                  inputs:
                    supplier_name: "${inputs.supplier}"
                  outputs:
                    - name: cost_centre
                      label: Cost centre to charge
            """;

    private static final String TOKEN = "inbox-it-token";

    /** The gateway's, removed after the class, once {@link #stopPlatform()} has closed it. */
    @TempDir
    static Path dataDir;
    private static Path[] executables;
    private static ConfigurableApplicationContext gateway;
    private static SopWorker judgmentWorker;
    private static int port;

    @BeforeAll
    static void platform() throws Exception {
        Optional<Path[]> installed = Browser.installed();
        assumeTrue(installed.isPresent(), "chromium and chromedriver are not installed (bash .ci/run installs them)");
        executables = installed.get();
        SharedBrokerTopics.ensure();
        gateway = new SpringApplication(GatewayApplication.class).run("--server.port=0",
                "--sop.kafka.bootstrap-servers=" + SharedKafka.bootstrapServers(),
                "--sop.bootstrap-token=" + TOKEN,
                "--sop.data-dir=" + dataDir);
        port = Integer.parseInt(gateway.getEnvironment().getProperty("local.server.port"));
        // The agent of a fresh installation: the offline local model. Its confidence over two answers stays far
        // below the step's 0.99 threshold, so it proposes and hands the step to a person.
        judgmentWorker = JudgmentWorker.start(SharedKafka.bootstrapServers(), AgentProviders.fromEnvironment(Map.of()), 1);
        await().atMost(Duration.ofSeconds(60)).until(() -> api().withToken(null).get("/actuator/health").status() == 200);
    }

    @AfterAll
    static void stopPlatform() {
        if (judgmentWorker != null) {
            judgmentWorker.close();
        }
        if (gateway != null) {
            gateway.close();
        }
    }

    private static SopApi api() {
        return new SopApi("http://localhost:" + port, TOKEN);
    }

    @Test
    void shouldLetAPersonFinishAnInstanceFromTheBrowserAlone(@TempDir Path files) throws Exception {
        Path processFile = Files.createTempFile(files, "purchase-request", ".yaml");
        Files.writeString(processFile, PROCESS);
        String ui = "http://localhost:" + port + "/ui/";
        String instanceId;
        String newWorkspaceToken;

        try (Browser inbox = Browser.open(executables)) {
            // Sign in, with the keyboard: a wrong token first.
            inbox.open("http://localhost:" + port + "/");
            WebElement token = inbox.visible(By.id("token"));
            token.sendKeys("not-a-token", Keys.ENTER);
            inbox.waitForText(By.id("token-error"), "not accepted");
            inbox.screenshot("01-sign-in-refused");
            token.clear();
            token.sendKeys(TOKEN, Keys.ENTER);
            inbox.waitForText(By.tagName("h1"), "Inbox");

            // Register the process and start an instance from its kickoff form; a bad amount is refused first.
            inbox.driver().findElement(By.linkText("Processes")).click();
            inbox.visible(By.id("register-file")).sendKeys(processFile.toAbsolutePath().toString());
            inbox.driver().findElement(By.xpath("//button[text()='Register']")).click();
            inbox.waitForText(By.tagName("h1"), "purchase-request");
            field(inbox, "item").sendKeys("Laptop");
            field(inbox, "amount").sendKeys("lots");
            inbox.driver().findElement(By.cssSelector("[data-field='urgency'] input[value='high']")).click();
            inbox.driver().findElement(By.xpath("//button[text()='Start instance']")).click();
            inbox.waitForText(By.cssSelector("[data-field='amount'] .field-error"), "Expected a number");
            assertThat(field(inbox, "amount").getAttribute("aria-invalid")).isEqualTo("true");
            assertEveryControlIsLabelled(inbox);
            inbox.screenshot("02-process-kickoff-error");
            field(inbox, "amount").clear();
            field(inbox, "amount").sendKeys("1200");
            inbox.driver().findElement(By.xpath("//button[text()='Start instance']")).click();
            inbox.waitForText(By.id("instance-state"), "waiting");
            assertThat(inbox.driver().findElement(By.id("status")).getText()).as("announced for the page it opened").startsWith("Started instance");
            String instancePage = inbox.driver().getCurrentUrl();
            instanceId = instancePage.substring(instancePage.lastIndexOf('/') + 1);

            // The inbox, filtered to the process: the form, with field errors from the gateway, then resolved.
            inbox.driver().findElement(By.linkText("Inbox")).click();
            inbox.waitForText(By.id("inbox-process"), "purchase-request");   // its options arrive after the page
            assertThat(inbox.driver().findElement(By.id("status")).getText()).as("the previous page's message").isEmpty();
            new Select(inbox.visible(By.id("inbox-process"))).selectByValue("purchase-request");
            WebElement form = opened(inbox, task(instanceId, "approve"), Keys.SPACE);
            assertThat(form.getText()).contains("Manager approval", "purchase-request", instanceId, "Laptop for 1200");
            inbox.markPage();
            form.findElement(By.cssSelector("[data-field='approval'] input[value='approved']")).click();
            form.findElement(By.cssSelector("[data-field='budget_code'] input")).sendKeys("twelve");
            form.findElement(By.xpath(".//button[text()='Submit']")).click();
            inbox.waitForText(fieldError(instanceId, "approve", "budget_code"), "Expected a whole number");
            inbox.waitForText(fieldError(instanceId, "approve", "comment"), "Required");
            inbox.screenshot("03-inbox-field-errors");
            form.findElement(By.cssSelector("[data-field='comment'] input")).sendKeys("For the new hire");
            WebElement budget = form.findElement(By.cssSelector("[data-field='budget_code'] input"));
            budget.clear();
            budget.sendKeys("12");
            form.findElement(By.xpath(".//button[text()='Submit']")).click();
            inbox.waitUntilGone(task(instanceId, "approve"));
            inbox.waitForText(By.id("status"), "Submitted");

            // The agent is not sure: the judgment arrives in the open inbox with its proposal, without a reload.
            WebElement judgment = opened(inbox, task(instanceId, "policy"), Keys.ENTER);
            assertThat(judgment.getText()).contains("Spend policy check", "escalated", "Is this spend within the purchasing policy?",
                    "local/all-minilm-l6-v2");
            assertThat(judgment.findElement(By.cssSelector(".confidence")).getText()).matches("\\d{1,2}%");
            assertThat(judgment.findElement(By.cssSelector(".rationale")).getText()).isNotBlank();
            String proposed = judgment.findElement(By.cssSelector(".proposal dd.proposed")).getText();
            assertThat(judgment.findElement(By.cssSelector("[data-field='within_policy'] input[value='" + proposed + "']")).isSelected())
                    .as("the agent's proposal is filled in").isTrue();
            assertThat(inbox.stillMarked()).isTrue();
            inbox.screenshot("04-inbox-escalated-judgment");
            inbox.resize(390, 844);
            assertNoSidewaysScrolling(inbox);
            inbox.screenshot("05-inbox-phone");
            inbox.resize(1280, 1000);

            // A second tab follows the instance page while the judgment is resolved in the inbox; a third, cut off from
            // live updates, still shows the judgment and is told plainly that someone else resolved it.
            String inboxTab = inbox.driver().getWindowHandle();
            String instanceTab = signInNewTab(inbox, instancePage);
            inbox.waitForText(By.id("instance-state"), "waiting");
            inbox.markPage();
            String staleTab = signInNewTab(inbox, ui + "#/processes");
            inbox.blockLiveStreams();
            inbox.open(ui + "#/inbox?process=purchase-request");
            inbox.visible(task(instanceId, "policy"));

            inbox.driver().switchTo().window(inboxTab);
            judgment = inbox.visible(task(instanceId, "policy"));   // still open: live updates keep the cards on the page
            judgment.findElement(By.cssSelector("[data-field='within_policy'] input[value='yes']")).click();
            judgment.findElement(By.xpath(".//button[text()='Submit']")).click();
            inbox.waitUntilGone(task(instanceId, "policy"));

            inbox.driver().switchTo().window(staleTab);
            WebElement stale = opened(inbox, task(instanceId, "policy"), null);
            stale.findElement(By.cssSelector("[data-field='within_policy'] input[value='no']")).click();
            stale.findElement(By.xpath(".//button[text()='Submit']")).click();
            inbox.waitForText(By.id("status"), "already resolved by someone else");
            inbox.waitUntilGone(task(instanceId, "policy"));
            inbox.screenshot("06-inbox-resolved-elsewhere");

            inbox.driver().switchTo().window(instanceTab);
            inbox.waitForText(By.id("instance-state"), "completed");
            assertThat(inbox.stillMarked()).as("the instance page updated without a reload").isTrue();
            inbox.waitForText(By.cssSelector(".timeline"), "Instance completed");
            String page = inbox.driver().findElement(By.id("main")).getText();
            assertThat(page).contains("approval", "approved", "within_policy", "yes", "Spend policy check");
            assertThat(inbox.textOf(By.cssSelector("tr[data-step='policy']"))).contains("completed", "human");
            inbox.screenshot("07-instance-completed");
            inbox.resize(390, 844);
            assertNoSidewaysScrolling(inbox);
            inbox.screenshot("08-instance-phone");
            inbox.resize(1280, 1000);

            // The instance list, filtered to the process.
            inbox.open(ui + "#/instances?process=purchase-request&state=completed");
            WebElement row = inbox.visible(By.cssSelector("tr[data-instance='" + instanceId + "']"));
            assertThat(row.getText()).contains("purchase-request", "completed");
            inbox.screenshot("09-instances");

            // The platform administrator makes a workspace for another team; its admin token is shown once.
            inbox.driver().findElement(By.linkText("Workspaces")).click();
            inbox.visible(By.id("workspace-name")).sendKeys("inbox-team", Keys.ENTER);
            inbox.waitForText(By.id("new-token-heading"), "Workspace inbox-team created");
            assertThat(inbox.driver().findElement(By.id("main")).getText()).contains("shown only this once");
            inbox.visible(By.cssSelector("tr[data-workspace='inbox-team']"));
            assertEveryControlIsLabelled(inbox);
            inbox.screenshot("11-workspace-created");
            newWorkspaceToken = inbox.driver().findElement(By.id("new-workspace-token")).getAttribute("value");
        }

        assertThat(api().withToken(newWorkspaceToken).get("/sop/token").json().path("workspace").asString()).isEqualTo("inbox-team");

        assertThat(api().get("/sop/purchase-request/" + instanceId).json().path("outputs").path("within_policy").asString())
                .isEqualTo("yes");
        assertThat(Files.size(Browser.SCREENSHOTS.resolve("07-instance-completed.png"))).isGreaterThan(10_000);
    }

    static final String FLAKY_PROCESS = """
            engine: "0.1"
            process:
              name: inbox-flaky-charge
              version: "1.0"
              steps:
                - id: charge
                  type: automated
                  run: billing.charge
                  retry: {max_attempts: 1}
                  outputs: [{name: receipt}]
            """;

    @Test
    void shouldRetryAFailedInstanceFromItsPageAndShowWhoDidWhatInItsTimeline() {
        // given an instance whose only attempt an HTTP worker reported failed
        assertThat(api().register(FLAKY_PROCESS).status()).isIn(200, 201);
        String instanceId = api().start("inbox-flaky-charge", Map.of()).json().path("id").asString();
        api().post("/sop/inbox-flaky-charge/" + instanceId + "/steps/charge/submit",
                Map.of("error", Map.of("code", "card_declined", "message", "The bank said no")));
        String ui = "http://localhost:" + port + "/ui/";

        try (Browser browser = Browser.open(executables)) {
            browser.open(ui + "#/instances/inbox-flaky-charge/" + instanceId);
            browser.visible(By.id("token")).sendKeys(TOKEN, Keys.ENTER);
            browser.waitForText(By.id("instance-state"), "failed");
            browser.waitForText(By.cssSelector(".timeline"), "charge: active → failed · by worker bootstrap — card_declined: The bank said no.");

            // when
            browser.driver().findElement(By.xpath("//button[text()='Retry']")).click();

            // then the instance runs again, and the timeline names the token that retried it
            browser.waitForText(By.id("instance-state"), "running");
            browser.waitForText(By.cssSelector(".timeline"), "charge (attempt 2): failed → active · by bootstrap.");
            assertThat(browser.textOf(By.cssSelector(".timeline")))
                    .contains("Instance started (running) · by bootstrap.", "Instance failed → running · by bootstrap.");
            assertThat(browser.driver().findElements(By.xpath("//button[text()='Retry']"))).isEmpty();
            browser.screenshot("12-instance-retried");
        }
        assertThat(api().get("/sop/inbox-flaky-charge/" + instanceId).json().path("steps").get(0).path("attempt").asInt()).isEqualTo(2);
    }

    @Test
    void shouldShowAViewerTheirRoleAndOfferNoControlTheRoleMayNotUse() {
        assertThat(api().register(REVIEW_PROCESS).status()).isIn(200, 201);
        String instanceId = api().start("viewer-review", Map.of("item", "Desk")).json().path("id").asString();
        String viewerToken = api().post("/workspace/tokens", Map.of("name", "inbox-viewer", "role", "viewer")).json().path("token").asString();
        String ui = "http://localhost:" + port + "/ui/";

        try (Browser browser = Browser.open(executables)) {
            browser.open(ui + "#/inbox?process=viewer-review");
            browser.visible(By.id("token")).sendKeys(viewerToken, Keys.ENTER);
            browser.waitForText(By.id("signed-in-as"), "viewer");
            assertThat(browser.driver().findElement(By.id("signed-in-as")).getText()).contains("default", "viewer");
            assertThat(browser.driver().findElement(By.id("workspaces-nav")).isDisplayed()).as("workspaces are the administrator's").isFalse();

            // The step is shown, but its Submit is disabled and says why, to sighted and screen-reader users alike.
            WebElement card = opened(browser, task(instanceId, "review"), null);
            WebElement submit = card.findElement(By.xpath(".//button[text()='Submit']"));
            assertThat(submit.isEnabled()).isFalse();
            WebElement reason = browser.driver().findElement(By.id(submit.getAttribute("aria-describedby")));
            assertThat(reason.getText()).contains("Your token's role (viewer) does not allow resolving steps");
            browser.screenshot("10-viewer-inbox");

            // No kickoff form on the process page: its place tells the role needed.
            browser.open(ui + "#/processes/viewer-review");
            browser.waitForText(By.id("kickoff-heading"), "Start an instance");
            assertThat(browser.driver().findElements(By.xpath("//button[text()='Start instance']"))).isEmpty();
            assertThat(browser.driver().findElement(By.id("main")).getText())
                    .contains("Your token's role (viewer) does not allow starting instances: that needs the role operator");
            browser.open(ui + "#/processes");
            browser.waitForText(By.id("register-heading"), "Register a process");
            assertThat(browser.driver().findElements(By.id("register-file"))).isEmpty();
            assertThat(browser.driver().findElement(By.id("main")).getText()).contains("does not allow registering processes");

            // Were a start sent anyway (a page opened before the role was known), the 403 names the role.
            Object refusal = browser.driver().executeAsyncScript("""
                    const done = arguments[arguments.length - 1];
                    import('/ui/js/api.js').then((api) => api.post('/sop/viewer-review/start', { inputs: { item: 'Chair' } }))
                      .then(() => done('started'), (error) => done(error.status + ' ' + error.message));""");
            assertThat(refusal).isEqualTo("403 Your token's role (viewer) does not allow this. Ask a workspace admin for a token with a wider role.");
        }
    }

    @Test
    void shouldListWaitingStepsAsShortRowsThatOpenToTheirFormAndSayWhereTheTokenIs() {
        assertThat(api().register(INVOICE_PROCESS).status()).isIn(200, 201);
        List<String> instanceIds = List.of("Acme", "Globex", "Initech", "Umbrella").stream()
                .map(supplier -> api().start("invoice-check", Map.of("supplier", supplier)).json().path("id").asString())
                .toList();
        String ui = "http://localhost:" + port + "/ui/";

        try (Browser browser = Browser.open(executables)) {
            // A first-time user is told where the token of a new installation is.
            browser.open(ui + "#/inbox?process=invoice-check");
            WebElement token = browser.visible(By.id("token"));
            assertThat(browser.driver().findElement(By.id("token-where")).getText())
                    .contains("bootstrap token", "printed when the platform starts", "data/bootstrap-token", "SOP_DATA_DIR", "./data");
            assertThat(token.getAttribute("aria-describedby")).contains("token-where");
            browser.screenshot("00-sign-in-hint");
            token.sendKeys(TOKEN, Keys.ENTER);

            // Four steps make four short rows: the step's name, its process, instance and age; no form yet.
            for (String instanceId : instanceIds) {
                WebElement row = browser.visible(task(instanceId, "check"));
                assertThat(row.getText()).contains("Check the invoice", "invoice-check", instanceId, "waiting");
                assertThat(toggle(row).getAttribute("aria-expanded")).isEqualTo("false");
                assertThat(row.findElement(By.tagName("form")).isDisplayed()).isFalse();
            }
            Object pageHeight = browser.driver().executeScript("return document.body.scrollHeight;");
            assertThat(((Number) pageHeight).intValue()).as("height of the page with four waiting steps").isLessThan(800);
            browser.screenshot("12-inbox-rows");

            // One opens from the keyboard and shows its form with the labels of the definition; the others stay closed.
            WebElement second = opened(browser, task(instanceIds.get(1), "check"), Keys.ENTER);
            assertThat(second.getText()).contains("supplier name", "Globex", "Cost centre to charge");
            assertThat(browser.driver().findElements(By.cssSelector(".task-toggle[aria-expanded='true']"))).hasSize(1);
            browser.screenshot("13-inbox-row-opened");
            toggle(second).click();
            assertThat(toggle(second).getAttribute("aria-expanded")).isEqualTo("false");
            assertThat(second.findElement(By.tagName("form")).isDisplayed()).isFalse();
        }
    }

    @Test
    void shouldKeepUpWithAWorkspaceThatChangesSeveralTimesASecondAndSayWhenALinkIsMalformed() throws Exception {
        String process = "invoice-burst";
        assertThat(api().register(INVOICE_PROCESS.replace("name: invoice-check", "name: " + process)).status()).isIn(200, 201);
        assertThat(api().register(REVIEW_PROCESS).status()).isIn(200, 201);
        for (int i = 0; i < 100; i++) {
            assertThat(api().start(process, Map.of("supplier", "Early " + i)).status()).isEqualTo(201);
        }
        String ui = "http://localhost:" + port + "/ui/";

        try (Browser browser = Browser.open(executables)) {
            browser.open(ui + "#/inbox?process=" + process);
            browser.visible(By.id("token")).sendKeys(TOKEN, Keys.ENTER);
            await().atMost(Duration.ofSeconds(20)).until(() -> browser.driver().findElements(By.cssSelector("article[data-task]")).size() == 100);
            // Another process's instances start about 30 times a second from two threads: changes of the workspace
            // that this inbox hears, none of them its rows, with never a pause long enough for a refresh that waits
            // for one (the engine's commits bring them every 100 ms).
            List<Thread> busy = List.of(new Thread(TaskInboxBrowserIT::startBusily), new Thread(TaskInboxBrowserIT::startBusily));
            busy.forEach(Thread::start);
            try {
                Thread.sleep(1_000);
                String late = api().start(process, Map.of("supplier", "Late Corp")).json().path("id").asString();

                // The 101st step is on the feed's second page: the inbox learns there is more while changes keep coming.
                WebElement more = browser.visible(By.xpath("//button[text()='Show more']"));
                more.click();
                browser.visible(task(late, "check"));
                Thread.sleep(3_000); // two forced refreshes at least, the changes still coming
                assertThat(browser.driver().findElements(task(late, "check"))).as("the card shown by Show more, after refreshes").hasSize(1);
            } finally {
                for (Thread thread : busy) {
                    thread.interrupt();
                    thread.join();
                }
            }

            // A link with a malformed escape leaves the inbox for the page that says so, not for a stale one.
            browser.open(ui + "#/processes/%E0");
            await().atMost(Duration.ofSeconds(10)).until(() -> browser.driver().findElement(By.tagName("main")).getText().contains("Not found"));
        }
    }

    private static void startBusily() {
        while (!Thread.currentThread().isInterrupted()) {
            api().start("viewer-review", Map.of("item", "busy"));
            try {
                Thread.sleep(60);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    static final String PARALLEL_PROCESS = """
            engine: "0.2"
            process:
              name: inbox-contract-review
              version: "1.0"
              trigger:
                type: api
              steps:
                - parallel:
                    id: reviews
                    name: Reviews side by side
                    branches:
                      - id: legal
                        steps:
                          - id: legal-review
                            name: Legal reads the contract
                            type: form
                            outputs: [{name: legal_note}]
                      - id: finance
                        steps:
                          - id: finance-review
                            name: Finance checks the price
                            type: form
                            outputs: [{name: finance_note}]
                - id: sign
                  name: Sign the contract
                  type: form
                  outputs: [{name: signed_by}]
            """;

    @Test
    void shouldShowBothBranchesOfAParallelBlockAndWaitForBothBeforeTheNextStep() {
        assertThat(api().register(PARALLEL_PROCESS).status()).isIn(200, 201);
        String instanceId = api().start("inbox-contract-review", Map.of()).json().path("id").asString();
        String ui = "http://localhost:" + port + "/ui/";

        try (Browser browser = Browser.open(executables)) {
            // Both branches wait in the inbox at once.
            browser.open(ui + "#/inbox?process=inbox-contract-review");
            browser.visible(By.id("token")).sendKeys(TOKEN, Keys.ENTER);
            assertThat(browser.visible(task(instanceId, "legal-review")).getText()).contains("Legal reads the contract", instanceId);
            assertThat(browser.visible(task(instanceId, "finance-review")).getText()).contains("Finance checks the price", instanceId);
            browser.screenshot("14-inbox-parallel-branches");

            WebElement legal = opened(browser, task(instanceId, "legal-review"), Keys.ENTER);
            legal.findElement(By.cssSelector("[data-field='legal_note'] input")).sendKeys("Clause 4 is fine");
            legal.findElement(By.xpath(".//button[text()='Submit']")).click();
            browser.waitUntilGone(task(instanceId, "legal-review"));

            // The instance page groups the block's steps; the step after the block waits for the other branch.
            browser.open(ui + "#/instances/inbox-contract-review/" + instanceId);
            browser.waitForText(By.cssSelector("tr[data-step='legal-review']"), "completed");
            assertThat(browser.textOf(By.cssSelector("tr[data-step='legal-review']")))
                    .contains("reviews › legal", "Legal reads the contract");
            assertThat(browser.textOf(By.cssSelector("tr[data-step='finance-review']")))
                    .contains("reviews › finance", "active");
            assertThat(browser.textOf(By.cssSelector("tr[data-step='sign']"))).contains("pending").doesNotContain("›");
            browser.screenshot("15-instance-parallel-one-branch-done");

            // The other branch is resolved from the instance page, and the instance moves on to the step after the block.
            WebElement finance = browser.visible(task(instanceId, "finance-review"));
            assertThat(finance.getText()).contains("Finance checks the price", "reviews › finance");
            finance.findElement(By.cssSelector("[data-field='finance_note'] input")).sendKeys("Within budget");
            finance.findElement(By.xpath(".//button[text()='Submit']")).click();
            browser.waitForText(By.cssSelector("tr[data-step='sign']"), "active");
            browser.visible(task(instanceId, "sign"));
            assertThat(browser.textOf(By.cssSelector("tr[data-step='finance-review']"))).contains("completed");
            browser.screenshot("16-instance-parallel-block-done");
        }
        assertThat(api().get("/sop/inbox-contract-review/" + instanceId).json().path("steps").get(2).path("state").asString())
                .isEqualTo("active");
    }

    /**
     * Opens a step's row in the inbox with its heading button, by a click or a key, and returns the step's card once
     * its form shows.
     */
    private static WebElement opened(Browser browser, By task, Keys key) {
        WebElement card = browser.visible(task);
        WebElement toggle = toggle(card);
        assertThat(toggle.getAttribute("aria-expanded")).isEqualTo("false");
        if (key == null) {
            toggle.click();
        } else {
            toggle.sendKeys(key);
        }
        assertThat(toggle.getAttribute("aria-expanded")).isEqualTo("true");
        assertThat(browser.driver().findElement(By.id(toggle.getAttribute("aria-controls"))).isDisplayed()).isTrue();
        browser.visible(By.cssSelector("#" + toggle.getAttribute("aria-controls") + " form"));
        return card;
    }

    private static WebElement toggle(WebElement card) {
        return card.findElement(By.cssSelector("button.task-toggle"));
    }

    /** Opens a tab, which starts signed out (the token is kept per tab), and signs in at the given page. */
    private static String signInNewTab(Browser browser, String page) {
        browser.driver().switchTo().newWindow(WindowType.TAB);
        browser.open(page);
        browser.visible(By.id("token")).sendKeys(TOKEN, Keys.ENTER);
        browser.visible(By.id("main-nav"));
        return browser.driver().getWindowHandle();
    }

    private static WebElement field(Browser browser, String name) {
        return browser.visible(By.cssSelector("[data-field='" + name + "'] input"));
    }

    private static By task(String instanceId, String stepId) {
        return By.cssSelector("article[data-task^='" + instanceId + "/" + stepId + "/']");
    }

    private static By fieldError(String instanceId, String stepId, String field) {
        return By.cssSelector("article[data-task^='" + instanceId + "/" + stepId + "/'] [data-field='" + field + "'] .field-error");
    }

    private static void assertEveryControlIsLabelled(Browser browser) {
        Object unlabelled = ((JavascriptExecutor) browser.driver()).executeScript("""
                return [...document.querySelectorAll('input, select, textarea')]
                  .filter(c => c.type !== 'hidden' && c.labels.length === 0 && !c.closest('fieldset')?.querySelector('legend'))
                  .map(c => c.outerHTML);""");
        assertThat((List<?>) unlabelled).isEmpty();
    }

    private static void assertNoSidewaysScrolling(Browser browser) {
        Object overflow = ((JavascriptExecutor) browser.driver()).executeScript(
                "return document.documentElement.scrollWidth - window.innerWidth;");
        assertThat(((Number) overflow).intValue()).as("page wider than a phone screen by").isLessThanOrEqualTo(0);
    }
}
