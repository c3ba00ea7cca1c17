"""Double-clicks the Pay button of an `idemlab serve` payment page in headless Chromium.

usage: double_click.py URL SERVER_STDERR GATE_DIR LEDGER
Loads URL and double-clicks #pay as a person does: two pointer clicks at one spot, 150 ms
apart. The server holds every payment at a gate (--fault slow:gate=GATE_DIR), so the second
click lands while the first is unanswered, for certain. Once the server has received both
submissions (SERVER_STDERR names a fault per request), the gate opens; the browser follows the
last answer's redirect. The other payment may still be writing its attempt row then, so the
script waits until LEDGER (the server's SQLite file) holds both rows, reloads the page as a
person would, and prints its result line.
"""
import pathlib
import re
import sqlite3
import sys
import threading
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def browser():
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--no-first-run", "--disable-background-networking", "--disable-sync",
                 "--disable-extensions", "--window-size=1280,900"):
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def open_gate_after(log, count, gate, seconds=120):
    """Opens the gate once the server has received `count` payments in all (or after
    `seconds`, when the test then fails on what the journal says)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and log.read_text().count("fault slow") < count:
        time.sleep(0.02)
    (gate / "open").touch()


def wait_for_attempts(ledger, form, count, seconds=120):
    """Returns once the attempts log holds `count` rows of the page's form `form`."""
    deadline = time.monotonic() + seconds
    with sqlite3.connect(f"file:{ledger}?mode=ro", uri=True, timeout=30) as db:
        while time.monotonic() < deadline:
            (rows,) = db.execute("SELECT count(*) FROM attempt WHERE source = 'pay' AND "
                                 "biz_seq LIKE ?", (form + "%",)).fetchone()
            if rows >= count:
                return
            time.sleep(0.02)


def result_line(driver):
    WebDriverWait(driver, 120, poll_frequency=0.05).until(
        lambda d: d.find_elements(By.CLASS_NAME, "result"))
    return driver.find_element(By.CLASS_NAME, "result").text


def main(url, log, gate, ledger):
    driver = browser()
    try:
        driver.set_page_load_timeout(120)
        driver.get(url)
        button = driver.find_element(By.ID, "pay")
        # chromedriver may hold a command until a pending navigation ends, and the first
        # payment's ends only when the gate opens: so another thread opens it.
        opener = threading.Thread(
            target=open_gate_after, args=(log, log.read_text().count("fault slow") + 2, gate))
        opener.start()
        ActionChains(driver).move_to_element(button).click().pause(0.15).click().perform()
        opener.join()
        result_line(driver)
        form = re.search(r"[?&]paid=([^&]+)", driver.current_url).group(1)
        wait_for_attempts(ledger, form, 2)
        driver.refresh()  # a GET after the redirect: it pays nothing
        print(result_line(driver))
    finally:
        driver.quit()


if __name__ == "__main__":
    main(sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3]), sys.argv[4])
